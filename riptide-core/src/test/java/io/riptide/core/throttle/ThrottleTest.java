package io.riptide.core.throttle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Passes per key per window, the window opened by the first pass, and bounded memory. */
class ThrottleTest {
    private static final long S = 1_000_000_000L;

    @Test
    void aKeyPassesOncePerWindow() {
        Throttle<String> gate = Throttle.oncePer(Duration.ofSeconds(10), 100);
        assertTrue(gate.admit("a", 0));
        assertTrue(gate.isOpen("a", 9 * S));
        assertFalse(gate.admit("a", 9 * S));
        assertTrue(gate.admit("b", 9 * S));
        assertFalse(gate.isOpen("a", 10 * S));
        assertTrue(gate.admit("a", 10 * S));
    }

    @Test
    void aKeyPassesSoManyTimesPerWindowCountedFromTheFirst() {
        Throttle<String> gate = Throttle.perWindow(Duration.ofSeconds(10), 3, 100);
        assertTrue(gate.admit("u", 0));
        assertTrue(gate.admit("u", 4 * S));
        assertTrue(gate.admit("u", 9 * S));
        assertFalse(gate.admit("u", 9 * S + 1), "the fourth within the window that opened at 0");
        assertTrue(gate.admit("u", 10 * S), "a new window opens at 10 s");
    }

    @Test
    void memoryIsBounded() {
        Throttle<Integer> gate = Throttle.oncePer(Duration.ofSeconds(10), 3);
        for (int i = 0; i < 10; i++) {
            assertTrue(gate.admit(i, i));
        }
        assertEquals(3, gate.size());
        assertTrue(gate.admit(0, 10), "a forgotten key passes again: one extra message, never a lost one");
    }

    @Test
    void closedWindowsAreForgotten() {
        Throttle<Integer> gate = Throttle.oncePer(Duration.ofSeconds(1), 100);
        gate.admit(1, 0);
        gate.admit(2, 0);
        gate.admit(3, 5 * S);
        assertEquals(1, gate.size(), "windows that closed before a pass are dropped with it");
    }

    @Test
    void nonsenseIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Throttle.perWindow(Duration.ofSeconds(1), 0, 10));
        assertThrows(IllegalArgumentException.class, () -> Throttle.oncePer(Duration.ofSeconds(1), 0));
    }
}
