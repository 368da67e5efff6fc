package io.riptide.cachemanager.hints;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** One pass per key per window, and bounded memory. */
class OncePerWindowTest {
    private static final long S = 1_000_000_000L;

    @Test
    void aKeyPassesOncePerWindow() {
        OncePerWindow<String> gate = new OncePerWindow<>(Duration.ofSeconds(10), 100);
        assertTrue(gate.admit("a", 0));
        assertFalse(gate.admit("a", 9 * S));
        assertTrue(gate.admit("b", 9 * S));
        assertTrue(gate.admit("a", 10 * S));
    }

    @Test
    void memoryIsBounded() {
        OncePerWindow<Integer> gate = new OncePerWindow<>(Duration.ofSeconds(10), 3);
        for (int i = 0; i < 10; i++) {
            assertTrue(gate.admit(i, i));
        }
        assertEquals(3, gate.size());
    }
}
