package io.riptide.simulator.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Tallies of reads per node. */
class ServedCountsTest {
    @Test
    void tallyOrdersBusiestFirstWithTiesByVertex() {
        ServedCounts c = new ServedCounts();
        for (int v : new int[] {7, 3, 7, 5, 3, 7}) {
            c.served(v);
        }
        c.unanswered();
        assertEquals(3, c.max());
        assertEquals(6, c.answered());
        assertEquals(1, c.unansweredCount());
        assertEquals(3, c.servingNodes());
        assertEquals(0, c.of(42));
        assertEquals(List.of(new ServedCounts.NodeCount(7, 3), new ServedCounts.NodeCount(3, 2), new ServedCounts.NodeCount(5, 1)),
                c.busiestFirst());
    }
}
