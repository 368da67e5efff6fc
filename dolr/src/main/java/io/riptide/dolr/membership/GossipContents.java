package io.riptide.dolr.membership;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What each leaf-set heartbeat carries to a member: the whole leaf set to a member that has not had
 * it yet, and to every member once every {@value #REFRESH_EVERY} periods (a lost gossip heals then);
 * otherwise only the members that entered the set since the last period, or nothing (a bare
 * heartbeat). Removals are not gossiped: each node detects failures itself.
 *
 * <p>Why so lean: leaf-set members are mostly in other stubs, so this traffic crosses the thin stub
 * uplinks. Full sets every period used most of a 1.5 Mb/s uplink in a stub of a hundred nodes; one in
 * five periods still kept it 40% busy. Worse, whole sets sent on every change made the traffic feed
 * itself: a burst of joins queued heartbeats past the failure timeout, each false failure changed
 * sixteen leaf sets, and each change sent sixteen whole sets. Sending the change alone cuts the cost
 * of a change about tenfold. Refreshes are staggered by member so they do not leave in one burst.
 */
final class GossipContents {
    /** Every this many heartbeats the full set goes to a member, changed or not. */
    static final int REFRESH_EVERY = 30;

    private final Set<Id> hadFullSet = new HashSet<>();
    private Set<Id> previous = Set.of();
    private List<NodeHandle> added = List.of();
    private long beats;

    /** Starts a heartbeat period for the leaf set {@code members}; forgets members that left. */
    void beginPeriod(List<NodeHandle> members) {
        beats++;
        Set<Id> current = new HashSet<>(members.size() * 2);
        List<NodeHandle> joined = new ArrayList<>();
        for (NodeHandle m : members) {
            current.add(m.id());
            if (!previous.contains(m.id())) {
                joined.add(m);
            }
        }
        hadFullSet.retainAll(current);
        previous = current;
        added = joined;
    }

    /** What to send {@code member} this period: {@code members}, the newcomers, or an empty list. */
    List<NodeHandle> forMember(NodeHandle member, List<NodeHandle> members) {
        boolean refresh = Math.floorMod(beats + member.id().hashCode(), REFRESH_EVERY) == 0;
        if (hadFullSet.add(member.id()) || refresh) {
            return members;
        }
        // A newcomer itself is never in it: it had the whole set above.
        return added;
    }
}
