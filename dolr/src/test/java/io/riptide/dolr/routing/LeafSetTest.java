package io.riptide.dolr.routing;

import static io.riptide.dolr.routing.RoutingTableTest.id;
import static io.riptide.dolr.routing.RoutingTableTest.node;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The nearest nodes on each side of the ring: order, bounds, wrap-around, coverage, membership changes. */
class LeafSetTest {
    private static final int HALF = 4;

    private static Id random(SplittableRandom r) {
        return Id.fromWords(r.nextLong(), r.nextLong(), r.nextInt());
    }

    private static List<NodeHandle> handles(String... prefixes) {
        List<NodeHandle> out = new ArrayList<>();
        for (String p : prefixes) {
            out.add(node(p, Integer.parseInt(p, 16)));
        }
        return out;
    }

    @Test
    void eachSideIsOrderedByRingDistanceAndBoundedByHalf() {
        LeafSet leaves = new LeafSet(id("80"), HALF);
        List<NodeHandle> offered = handles("85", "81", "83", "7e", "7a", "87", "82", "84", "86", "7c", "7d", "7b", "7f");
        Collections.shuffle(offered, new Random(11));
        offered.forEach(leaves::add);

        assertEquals(handles("81", "82", "83", "84"), leaves.right());
        assertEquals(handles("7f", "7e", "7d", "7c"), leaves.left());
        assertEquals(node("84", 0x84), leaves.rightEdge());
        assertEquals(node("7c", 0x7c), leaves.leftEdge());
        assertEquals(8, leaves.size());
        assertTrue(leaves.isFull());
        assertFalse(leaves.contains(id("85")));
        assertFalse(leaves.contains(id("7b")));
    }

    @Test
    void sidesWrapAroundZero() {
        LeafSet low = new LeafSet(id("02"), HALF);
        handles("fe", "03", "ff", "05", "01", "fd", "04", "fc", "fb", "06", "07").forEach(low::add);

        assertEquals(handles("03", "04", "05", "06"), low.right());
        assertEquals(handles("01", "ff", "fe", "fd"), low.left(), "predecessors continue below zero");
        assertTrue(low.covers(id("fd8")), "between the left edge and zero");
        assertTrue(low.covers(id("00")));
        assertFalse(low.covers(id("fc8")));

        LeafSet high = new LeafSet(id("fe"), HALF);
        handles("ff", "00", "01", "02", "03", "fd", "fc", "fb", "fa", "f9").forEach(high::add);
        assertEquals(handles("ff", "00", "01", "02"), high.right(), "successors continue past zero");
        assertEquals(handles("fd", "fc", "fb", "fa"), high.left());
        assertTrue(high.covers(id("018")));
        assertFalse(high.covers(id("028")));
    }

    @Test
    void inASmallNetworkEveryoneIsOnBothSidesAndEveryKeyIsCovered() {
        SplittableRandom r = new SplittableRandom(3);
        LeafSet leaves = new LeafSet(id("80"), HALF);
        List<NodeHandle> others = handles("10", "90", "f0");
        others.forEach(leaves::add);

        assertEquals(handles("90", "f0", "10"), leaves.right(), "clockwise from 80");
        assertEquals(handles("10", "f0", "90"), leaves.left(), "counter-clockwise from 80");
        assertFalse(leaves.isFull());
        for (int i = 0; i < 1000; i++) {
            assertTrue(leaves.covers(random(r)));
        }
    }

    @Test
    void withFewerThanTwoHalvesOfOthersTheSidesOverlapAndCoverTheWholeRing() {
        // 2 * HALF - 1 others: each side is full, yet together they hold everyone and span the ring.
        SplittableRandom r = new SplittableRandom(4);
        LeafSet leaves = new LeafSet(id("80"), HALF);
        List<NodeHandle> others = handles("10", "30", "50", "70", "90", "b0", "d0");
        others.forEach(leaves::add);

        assertTrue(leaves.isFull());
        assertEquals(new HashSet<>(others), new HashSet<>(leaves.members()));
        for (int i = 0; i < 1000; i++) {
            Id key = random(r);
            assertTrue(leaves.covers(key), key::toString);
        }

        // One more (2 * HALF others) leaves a gap opposite this node that neither side spans.
        leaves.add(node("f0", 0xf0));
        assertEquals(handles("90", "b0", "d0", "f0"), leaves.right());
        assertEquals(handles("70", "50", "30", "10"), leaves.left());
        assertFalse(leaves.covers(id("f8")));
        assertFalse(leaves.covers(id("08")));
        assertTrue(leaves.covers(id("f0")), "the edge itself is covered");
    }

    @Test
    void coversKeysWithinTheSpanOnlyWhenFull() {
        LeafSet leaves = new LeafSet(id("80"), HALF);
        handles("81", "82", "83", "84", "7f", "7e", "7d", "7c").forEach(leaves::add);

        assertTrue(leaves.covers(id("80")), "its own ID");
        assertTrue(leaves.covers(id("83ff")));
        assertTrue(leaves.covers(id("84")), "right edge");
        assertFalse(leaves.covers(Id.fromWords(0x8400000000000000L, 0, 1)), "just past the right edge");
        assertTrue(leaves.covers(id("7c")), "left edge");
        assertFalse(leaves.covers(id("7c").minus(Id.fromWords(0, 0, 1))), "just past the left edge");
        assertFalse(leaves.covers(id("00")));
        assertFalse(leaves.covers(id("c0")));
    }

    @Test
    void wouldAcceptAgreesWithAdd() {
        SplittableRandom r = new SplittableRandom(5);
        Id self = random(r);
        LeafSet leaves = new LeafSet(self, HALF);
        int accepted = 0;
        for (int i = 0; i < 2000; i++) {
            // Half the offers land near this node so that full sides still take some of them.
            Id id = i % 2 == 0 ? random(r) : self.plus(Id.fromWords(r.nextLong() >> 20, r.nextLong(), r.nextInt()));
            boolean predicted = leaves.wouldAccept(id);
            boolean added = leaves.add(new NodeHandle(id, NodeAddress.simulated(i)));
            assertEquals(predicted, added, () -> "offer of " + id + " to " + leaves.right() + " / " + leaves.left());
            if (added) {
                accepted++;
            }
        }
        assertTrue(accepted > 2 * HALF, "the check saw both outcomes: " + accepted);
        assertFalse(leaves.wouldAccept(self));
        assertFalse(leaves.wouldAccept(leaves.rightEdge().id()), "already a member");
        assertFalse(leaves.add(new NodeHandle(self, NodeAddress.simulated(1))), "never itself");
    }

    @Test
    void removeTakesTheNodeOffBothSides() {
        LeafSet leaves = new LeafSet(id("80"), HALF);
        handles("10", "90", "f0").forEach(leaves::add);

        assertTrue(leaves.remove(id("90")));

        assertFalse(leaves.contains(id("90")));
        assertEquals(handles("f0", "10"), leaves.right());
        assertEquals(handles("10", "f0"), leaves.left());
        assertFalse(leaves.remove(id("90")), "already gone");

        LeafSet full = new LeafSet(id("80"), HALF);
        handles("81", "82", "83", "84", "7f", "7e", "7d", "7c").forEach(full::add);
        assertTrue(full.remove(id("82")));
        assertEquals(handles("81", "83", "84"), full.right());
        assertFalse(full.isFull());
        assertTrue(full.wouldAccept(id("90")), "a side has room again");
    }

    @Test
    void aKnownIdAtANewAddressReplacesTheOldHandle() {
        LeafSet leaves = new LeafSet(id("80"), HALF);
        handles("81", "82", "7f").forEach(leaves::add);
        NodeHandle moved = node("82", 999);

        assertTrue(leaves.add(moved));

        assertEquals(List.of(node("81", 0x81), moved, node("7f", 0x7f)), leaves.right());
        assertEquals(List.of(node("7f", 0x7f), moved, node("81", 0x81)), leaves.left());
        assertEquals(3, leaves.size());
        assertFalse(leaves.add(moved), "the same handle again changes nothing");
        assertNull(new LeafSet(id("80"), HALF).rightEdge());
    }
}
