package io.riptide.benchmarks.routing;

import io.riptide.benchmarks.fixture.RandomIds;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.routing.LeafSet;
import io.riptide.dolr.routing.Router;
import io.riptide.dolr.routing.RoutingTable;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The converged routing state of one node in an overlay of random IDs: every other node offered to
 * the routing table with a random RTT (so each slot keeps its lowest-RTT candidates, as proximity
 * neighbour selection converges to) and to the leaf set (which keeps the true ID neighbours).
 */
final class OverlayFixture {
    // RTTs between hosts on a wide-area overlay: a few ms in a campus, a few hundred across oceans.
    private static final long MIN_RTT_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long MAX_RTT_NANOS = TimeUnit.MILLISECONDS.toNanos(300);

    final NodeHandle self;
    final RoutingTable table;
    final LeafSet leafSet;
    final Router router;

    private OverlayFixture(NodeHandle self, RoutingTable table, LeafSet leafSet) {
        this.self = self;
        this.table = table;
        this.leafSet = leafSet;
        this.router = new Router(self, table, leafSet);
    }

    /** The state of the first of {@code nodes} random nodes, sized by the deployment defaults. */
    static OverlayFixture build(int nodes, long seed) {
        DolrConfig config = DolrConfig.defaults();
        SplittableRandom random = new SplittableRandom(seed);
        NodeHandle self = RandomIds.handle(RandomIds.id(random), random);
        RoutingTable table = new RoutingTable(self.id(), config.slotCandidates());
        LeafSet leafSet = new LeafSet(self.id(), config.leafSetHalf());
        for (int i = 1; i < nodes; i++) {
            NodeHandle other = RandomIds.handle(RandomIds.id(random), random);
            table.offer(other, random.nextLong(MIN_RTT_NANOS, MAX_RTT_NANOS));
            leafSet.add(other);
        }
        if (!leafSet.isFull()) {
            throw new IllegalStateException("leaf set not full: the overlay is too small for the benchmark");
        }
        return new OverlayFixture(self, table, leafSet);
    }

    /** Random keys, nearly all outside the leaf set's range: the common multi-hop case. */
    Id[] randomKeys(SplittableRandom random, int n) {
        return RandomIds.ids(random, n);
    }

    /** Keys spread uniformly over the leaf set's range, from its left edge to its right edge. */
    Id[] leafSetKeys(SplittableRandom random, int n) {
        Id from = leafSet.leftEdge().id();
        Id span = from.clockwiseTo(leafSet.rightEdge().id());
        // With thousands of nodes the span is a sliver of the ring but still reaches into the top
        // word, so drawing the top word below span's (and the rest freely) stays inside the range.
        if (span.hi() <= 0) {
            throw new IllegalStateException("leaf-set span too narrow for this key generator");
        }
        Id[] out = new Id[n];
        for (int i = 0; i < n; i++) {
            Id offset = Id.fromWords(random.nextLong(span.hi()), random.nextLong(), random.nextInt());
            out[i] = from.plus(offset);
            if (!leafSet.covers(out[i])) {
                throw new IllegalStateException("generated key outside the leaf set: " + out[i]);
            }
        }
        return out;
    }
}
