package io.riptide.core.object;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.riptide.core.id.Id;
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
}
