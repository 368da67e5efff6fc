package io.riptide.dolr.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Placement of candidates by shared prefix, and the RTT-ordered candidates of each slot. */
class RoutingTableTest {
    private static final Id SELF = id("a3c");
    private final RoutingTable table = new RoutingTable(SELF, 3);

    /** The ID whose hex digits start with {@code prefix}, the rest zero. */
    static Id id(String prefix) {
        return Id.fromHex(prefix + "0".repeat(40 - prefix.length()));
    }

    static NodeHandle node(String prefix, int vertex) {
        return new NodeHandle(id(prefix), NodeAddress.simulated(vertex));
    }

    @Test
    void placesACandidateAtTheRowOfTheSharedPrefixAndTheColumnOfItsNextDigit() {
        NodeHandle sharesNone = node("b1", 1);
        NodeHandle sharesOne = node("a4", 2);
        NodeHandle sharesTwo = node("a3f", 3);
        assertTrue(table.offer(sharesNone, 10));
        assertTrue(table.offer(sharesOne, 10));
        assertTrue(table.offer(sharesTwo, 10));

        assertEquals(0, table.rowOf(sharesNone.id()));
        assertEquals(2, table.rowOf(sharesTwo.id()));
        assertEquals(List.of(sharesNone), table.slot(0, 0xb));
        assertEquals(List.of(sharesOne), table.slot(1, 0x4));
        assertEquals(List.of(sharesTwo), table.slot(2, 0xf));
        assertTrue(table.slot(0, 0xa).isEmpty(), "our own digit's slot stays empty in row 0");
        assertTrue(table.slot(1, 0xb).isEmpty());
        assertTrue(table.contains(sharesTwo.id()));
        assertFalse(table.contains(id("a3e")));
        assertEquals(3, table.all().size());
    }

    @Test
    void aSlotKeepsAtMostSlotCandidatesNearestFirst() {
        NodeHandle far = node("11", 1);
        NodeHandle near = node("12", 2);
        NodeHandle middle = node("13", 3);
        table.offer(far, 30);
        table.offer(near, 10);
        table.offer(middle, 20);

        assertEquals(List.of(near, middle, far), table.slot(0, 1));
        assertEquals(near, table.primary(0, 1));
        assertEquals(3, table.slotSize(0, 1));
    }

    @Test
    void aNearerCandidateDisplacesTheFarthest() {
        fillSlotOne();
        NodeHandle nearer = node("14", 4);

        assertTrue(table.offer(nearer, 15));

        assertEquals(List.of(node("12", 2), nearer, node("13", 3)), table.slot(0, 1));
        assertFalse(table.contains(id("11")), "the farthest was dropped");
    }

    @Test
    void aFartherCandidateIsRefusedWhenTheSlotIsFull() {
        fillSlotOne();

        assertFalse(table.offer(node("14", 4), 40));
        assertFalse(table.offer(node("15", 5), 30), "no nearer than the farthest: refused too");

        assertEquals(List.of(node("12", 2), node("13", 3), node("11", 1)), table.slot(0, 1));
    }

    @Test
    void reofferingAKnownNodeWithANewRttResortsTheSlot() {
        fillSlotOne();

        assertTrue(table.offer(node("12", 2), 25));
        assertEquals(List.of(node("13", 3), node("12", 2), node("11", 1)), table.slot(0, 1));
        assertFalse(table.offer(node("12", 2), 25), "same node, same RTT: no change");

        // Re-offered with a new RTT into a full slot: it moves rather than being refused or duplicated.
        assertTrue(table.offer(node("11", 1), 5));
        assertEquals(List.of(node("11", 1), node("13", 3), node("12", 2)), table.slot(0, 1));

        NodeHandle moved = node("13", 99);
        assertTrue(table.offer(moved, 20), "same ID at a new address");
        assertEquals(List.of(node("11", 1), moved, node("12", 2)), table.slot(0, 1));
    }

    @Test
    void removingTheNearestPromotesTheNextCandidate() {
        fillSlotOne();

        assertTrue(table.remove(id("12")));

        assertEquals(node("13", 3), table.primary(0, 1));
        assertEquals(List.of(node("13", 3), node("11", 1)), table.slot(0, 1));
        assertFalse(table.remove(id("12")), "already gone");
        assertFalse(table.remove(id("c5")), "never there");
        assertFalse(table.remove(SELF));
        assertTrue(table.remove(id("13")));
        assertTrue(table.remove(id("11")));
        assertNull(table.primary(0, 1));
        assertEquals(0, table.slotSize(0, 1));
    }

    @Test
    void rowsAllPrimariesAndPopulatedRows() {
        assertEquals(0, table.populatedRows());
        fillSlotOne();
        NodeHandle row0col5 = node("5", 4);
        NodeHandle row1col0 = node("a0", 5);
        NodeHandle row3col2 = node("a3c2", 6);
        NodeHandle row3col2Backup = node("a3c21", 7);
        table.offer(row0col5, 50);
        table.offer(row1col0, 50);
        table.offer(row3col2, 10);
        table.offer(row3col2Backup, 20);

        assertEquals(List.of(node("12", 2), row0col5), table.row(0), "primaries, by column");
        assertEquals(List.of(row1col0), table.row(1));
        assertEquals(List.of(), table.row(2));
        assertEquals(List.of(row3col2), table.row(3));
        assertEquals(List.of(), table.row(-1));
        assertEquals(List.of(), table.row(Id.DIGITS));
        assertEquals(List.of(node("12", 2), row0col5, row1col0, row3col2), table.primaries());
        assertEquals(List.of(node("12", 2), node("13", 3), node("11", 1), row0col5, row1col0, row3col2, row3col2Backup),
                table.all(), "every candidate, row by row, nearest first within a slot");
        // Counts rows up to the deepest populated one (row 2 is empty): the range maintenance draws from.
        assertEquals(4, table.populatedRows());
    }

    @Test
    void neverStoresItself() {
        assertFalse(table.offer(new NodeHandle(SELF, NodeAddress.simulated(1)), 1));

        assertFalse(table.contains(SELF));
        assertTrue(table.all().isEmpty());
        assertEquals(0, table.populatedRows());
    }

    private void fillSlotOne() {
        table.offer(node("11", 1), 30);
        table.offer(node("12", 2), 10);
        table.offer(node("13", 3), 20);
    }
}
