package io.riptide.core.stage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class StageConfigTest {
    @Test
    void defaultsAreUsable() {
        StageConfig c = StageConfig.of("verify", 200, 1, 8);
        assertEquals(20, c.growThreshold());
        assertEquals(StageConfig.DEFAULT_CONTROL_PERIOD, c.controlPeriod());
        assertEquals(StageConfig.DEFAULT_IDLE_TIMEOUT, c.idleTimeout());
        assertEquals(0, StageConfig.of("tiny", 1, 1, 1).growThreshold(), "a threshold the queue can exceed");
    }

    @Test
    void withersChangeOneField() {
        StageConfig c = StageConfig.of("x", 10, 1, 2)
                .withGrowThreshold(3)
                .withControlPeriod(Duration.ofMillis(7))
                .withIdleTimeout(Duration.ofMillis(9));
        assertEquals(new StageConfig("x", 10, 1, 2, 3, Duration.ofMillis(7), Duration.ofMillis(9)), c);
    }

    @Test
    void refusesNonsense() {
        assertThrows(IllegalArgumentException.class, () -> StageConfig.of(" ", 10, 1, 2));
        assertThrows(IllegalArgumentException.class, () -> StageConfig.of("x", 0, 1, 2));
        assertThrows(IllegalArgumentException.class, () -> StageConfig.of("x", 10, 0, 2));
        assertThrows(IllegalArgumentException.class, () -> StageConfig.of("x", 10, 3, 2));
        assertThrows(IllegalArgumentException.class, () -> StageConfig.of("x", 10, 1, 2).withGrowThreshold(10));
        assertThrows(IllegalArgumentException.class, () -> StageConfig.of("x", 10, 1, 2).withGrowThreshold(-1));
        assertThrows(IllegalArgumentException.class, () -> StageConfig.of("x", 10, 1, 2).withControlPeriod(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> StageConfig.of("x", 10, 1, 2).withIdleTimeout(Duration.ofMillis(-1)));
    }
}
