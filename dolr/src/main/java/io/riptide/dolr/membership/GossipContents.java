package io.riptide.dolr.membership;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What each leaf-set heartbeat carries to a member: the whole leaf set when it changed since that
 * member last got it, and every {@value #REFRESH_EVERY}th period anyway (a lost gossip heals then);
 * otherwise nothing, a bare heartbeat. Leaf-set members are mostly in other stubs, so this traffic
 * crosses the thin stub uplinks: full sets every period used most of a 1.5 Mb/s uplink in a stub of
 * a hundred nodes, while the sets rarely change once the overlay is settled.
 */
final class GossipContents {
    /** Every this many heartbeats the full set goes to every member, changed or not. */
    static final int REFRESH_EVERY = 5;

    private final Map<Id, Integer> lastSent = new HashMap<>();
    private long beats;

    /** Starts a heartbeat period for the leaf set {@code members}; forgets members that left. */
    void beginPeriod(List<NodeHandle> members) {
        beats++;
        if (lastSent.size() > members.size()) {
            lastSent.keySet().retainAll(members.stream().map(NodeHandle::id).toList());
        }
    }

    /** What to send {@code member} this period: {@code members} itself, or an empty list. */
    List<NodeHandle> forMember(NodeHandle member, List<NodeHandle> members) {
        int digest = members.hashCode();
        Integer last = lastSent.put(member.id(), digest);
        boolean send = beats % REFRESH_EVERY == 0 || last == null || last != digest;
        return send ? members : List.of();
    }
}
