package io.riptide.simulator.dissemination;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.riptide.simulator.topology.TopologyParams;
import io.riptide.simulator.topology.TransitStubTopology;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The crossing counts of small hand-made trees. */
class TreeCostTest {
    private final TransitStubTopology topology = TransitStubTopology.generate(TopologyParams.forHosts(90).withHostsPerStub(30), 1);

    private int host(int stub, int i) {
        return topology.firstHost(stub) + i;
    }

    @Test
    void oneEntryPerStubIsOptimal() {
        int root = host(0, 0);
        int a1 = host(1, 0);
        int a2 = host(1, 1);
        int b1 = host(2, 0);
        int r2 = host(0, 1);
        TreeCost c = TreeCost.of(topology, root, List.of(root, a1, a2, b1, r2),
                List.of(new TreeEdge(root, a1), new TreeEdge(a1, a2), new TreeEdge(a1, b1), new TreeEdge(root, r2)));
        assertEquals(4, c.replicas());
        assertEquals(3, c.memberStubs());
        assertEquals(2, c.interStubEdges());
        assertEquals(4, c.crossings());
        assertEquals(4, c.optimal());
        assertEquals(6, c.direct()); // a1, a2 and b1 each fetching from the root's stub
        assertEquals(1.0, c.ratio());
    }

    @Test
    void enteringAStubTwiceCostsMore() {
        int root = host(0, 0);
        int a1 = host(1, 0);
        int a2 = host(1, 1);
        TreeCost c = TreeCost.of(topology, root, List.of(root, a1, a2), List.of(new TreeEdge(root, a1), new TreeEdge(root, a2)));
        assertEquals(4, c.crossings());
        assertEquals(2, c.optimal());
        assertEquals(2.0, c.ratio());
    }

    @Test
    void aTreeWithinTheRootsStubCrossesNothing() {
        int root = host(0, 0);
        int r1 = host(0, 1);
        TreeCost c = TreeCost.of(topology, root, List.of(root, r1), List.of(new TreeEdge(root, r1)));
        assertEquals(0, c.crossings());
        assertEquals(0, c.optimal());
        assertEquals(0, c.direct());
        assertEquals(1.0, c.ratio());
    }
}
