package io.riptide.core.object;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class VersionFloorTest {
    private static Id guid(int i) {
        return Id.hash("guid " + i);
    }

    @Test
    void startsAtZeroAndNeverLowers() {
        VersionFloor floor = new VersionFloor(4);
        assertEquals(0, floor.floor(guid(1)));
        floor.raise(guid(1), 5);
        floor.raise(guid(1), 3);
        assertEquals(5, floor.floor(guid(1)));
        floor.raise(guid(1), 7);
        assertEquals(7, floor.floor(guid(1)));
    }

    @Test
    void boundedForgettingTheLeastRecentlyUsed() {
        VersionFloor floor = new VersionFloor(100);
        for (int i = 0; i < 100; i++) {
            floor.raise(guid(i), 1 + i);
        }
        floor.floor(guid(0)); // touch: now the most recently used
        for (int i = 100; i < 10_000; i++) {
            floor.raise(guid(i), 1);
            assertEquals(Math.min(i + 1, 100), floor.size());
            floor.floor(guid(0));
        }
        assertEquals(100, floor.size());
        assertEquals(1, floor.floor(guid(0)));
        assertEquals(0, floor.floor(guid(1)));
        assertThrows(IllegalArgumentException.class, () -> new VersionFloor(0));
    }

    @Test
    void admitsTheFloorAndAboveAndCountsEachRefusal() {
        VersionFloor floor = new VersionFloor(4);
        assertTrue(floor.admits(guid(1), 1), "no floor yet");
        floor.raise(guid(1), 3);
        assertTrue(floor.admits(guid(1), 3));
        assertTrue(floor.admits(guid(1), 4));
        assertFalse(floor.admits(guid(1), 2));
        assertFalse(floor.admits(guid(1), 1));
        assertEquals(2, floor.refused());
        assertEquals(3, floor.floor(guid(1)), "admitting never raises");
    }

    @Test
    void theListenerHearsRaisesThatChangeAFloorAndNotRestores() {
        List<String> heard = new ArrayList<>();
        VersionFloor floor = new VersionFloor(4, (guid, version) -> heard.add(guid.shortHex() + "=" + version));
        floor.restore(guid(1), 5);
        floor.raise(guid(1), 4); // below: no change
        floor.raise(guid(1), 5); // equal: no change
        floor.raise(guid(1), 6);
        floor.raise(guid(2), 1);
        assertEquals(List.of(guid(1).shortHex() + "=6", guid(2).shortHex() + "=1"), heard);
        floor.restore(guid(1), 2);
        assertEquals(6, floor.floor(guid(1)), "a restore never lowers either");
    }

    @Test
    void entriesListLeastRecentlyUsedFirst() {
        VersionFloor floor = new VersionFloor(3);
        floor.raise(guid(1), 1);
        floor.raise(guid(2), 2);
        floor.raise(guid(3), 3);
        floor.floor(guid(1));
        assertEquals(List.of(Map.entry(guid(2), 2L), Map.entry(guid(3), 3L), Map.entry(guid(1), 1L)), floor.entries());
    }
}
