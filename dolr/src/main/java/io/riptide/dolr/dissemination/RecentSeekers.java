package io.riptide.dolr.dissemination;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The last member of each tree whose seek passed through this node, for a while: two members of a
 * wide stub whose two-hop areas miss each other may still share a node between them, which then
 * introduces the later seeker to the earlier one. One member per tree, a bounded number of trees,
 * oldest forgotten first, so what seekers (real or forged) send costs a fixed amount of memory.
 */
final class RecentSeekers {
    private record Seen(NodeHandle member, long atNanos) {
    }

    private final int maxTrees;
    private final long keepNanos;
    private final Map<Id, Seen> seen = new LinkedHashMap<>();

    RecentSeekers(int maxTrees, long keepNanos) {
        this.maxTrees = maxTrees;
        this.keepNanos = keepNanos;
    }

    /**
     * Records that {@code member} sought near here for {@code guid} at {@code now}, and returns the
     * member that sought before it, if another one did recently (null otherwise).
     */
    NodeHandle swap(Id guid, NodeHandle member, long now) {
        Seen before = seen.remove(guid);
        seen.put(guid, new Seen(member, now));
        if (seen.size() > maxTrees) {
            seen.remove(seen.keySet().iterator().next());
        }
        if (before == null || now - before.atNanos() > keepNanos || before.member().id().equals(member.id())) {
            return null;
        }
        return before.member();
    }
}
