package io.riptide.core.stage;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PoolControllerTest {
    @Test
    void growsOnlyAfterTheQueueStaysAboveTheThreshold() {
        PoolController c = new PoolController(5, 4);
        assertFalse(c.shouldGrow(6, 1), "one sample above could be a burst");
        assertTrue(c.shouldGrow(6, 1), "second consecutive sample above grows");
    }

    @Test
    void aSampleAtOrBelowTheThresholdResetsTheCount() {
        PoolController c = new PoolController(5, 4);
        assertFalse(c.shouldGrow(9, 1));
        assertFalse(c.shouldGrow(5, 1));
        assertFalse(c.shouldGrow(9, 1));
        assertTrue(c.shouldGrow(9, 1));
    }

    @Test
    void countsAfreshAfterGrowing() {
        PoolController c = new PoolController(0, 8);
        assertFalse(c.shouldGrow(3, 1));
        assertTrue(c.shouldGrow(3, 1));
        assertFalse(c.shouldGrow(3, 2), "the new worker gets a sample to help");
        assertTrue(c.shouldGrow(3, 2));
    }

    @Test
    void neverGrowsBeyondTheMaximum() {
        PoolController c = new PoolController(0, 2);
        for (int i = 0; i < 10; i++) {
            assertFalse(c.shouldGrow(100, 2));
        }
    }
}
