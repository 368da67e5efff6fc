package io.riptide.dolr.client;

import io.riptide.core.runtime.NodeHandle;
import java.util.List;

/**
 * What a client has counted of its reads through access nodes, for status pages and metrics.
 *
 * @param readsHedged      reads sent again, to the second nearest live access node, for being late
 * @param hedgeWins        hedged reads that the second access node answered first
 * @param hedgesOverBudget late reads not hedged because the hedge budget was spent
 * @param readsResent      reads sent again to the next live access node because theirs was lost (its
 *                         connection closed) or could not serve them (it answered that it timed out)
 * @param nodesLost        times an access node was marked down (connection lost, a read unanswered, or hung)
 * @param nodesHung        of those, times a node was marked down for answering nothing while reads through it
 *                         waited and another access node answered promptly (its connection still open)
 * @param down             the access nodes down now, pinged again in the background
 */
public record AccessFigures(long readsHedged, long hedgeWins, long hedgesOverBudget, long readsResent, long nodesLost,
        long nodesHung, List<NodeHandle> down) {
    /** Nothing counted: a client whose reads are not hedged (a member's own access). */
    public static final AccessFigures NONE = new AccessFigures(0, 0, 0, 0, 0, 0, List.of());

    public AccessFigures {
        down = List.copyOf(down);
    }
}
