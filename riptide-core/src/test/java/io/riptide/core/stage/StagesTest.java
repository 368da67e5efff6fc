package io.riptide.core.stage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StagesTest {
    private static final java.util.concurrent.Executor DIRECT = Runnable::run;

    @Test
    void routesWorkToTheNamedStage() throws Exception {
        try (Stages stages = Stages.start(StageConfig.of("parse", 10, 1, 1), StageConfig.of("verify", 10, 1, 1))) {
            CompletableFuture<String> ran = new CompletableFuture<>();
            assertTrue(stages.submit("verify", () -> Thread.currentThread().getName(), (r, f) -> ran.complete(r), DIRECT));
            assertTrue(ran.get(5, TimeUnit.SECONDS).startsWith("stage-verify-"));
            assertEquals(List.of("parse", "verify"), List.copyOf(stages.names()));
            assertTrue(stages.stage("parse").isPresent());
            assertFalse(stages.stage("nope").isPresent());
        }
    }

    @Test
    void refusesWorkForAnUnknownStageWithoutCallingBack() {
        try (Stages stages = Stages.start(StageConfig.of("parse", 10, 1, 1))) {
            assertFalse(stages.submit("no-such-stage", () -> 1, (r, f) -> {
                throw new AssertionError("must not be called");
            }, DIRECT));
        }
    }

    @Test
    void reportsMetricsPerStage() throws Exception {
        try (Stages stages = Stages.start(StageConfig.of("a", 10, 1, 1), StageConfig.of("b", 10, 1, 1))) {
            CompletableFuture<Integer> done = new CompletableFuture<>();
            stages.submit("b", () -> 1, (r, f) -> done.complete(r), DIRECT);
            done.get(5, TimeUnit.SECONDS);
            Map<String, StageMetrics> m = stages.metrics();
            assertEquals(List.of("a", "b"), List.copyOf(m.keySet()));
            assertEquals(0, m.get("a").accepted());
            assertEquals(1, m.get("b").accepted());
            assertEquals("b", m.get("b").name());
        }
    }

    @Test
    void refusesDuplicateNames() {
        assertThrows(IllegalArgumentException.class,
                () -> Stages.start(StageConfig.of("dup", 10, 1, 1), StageConfig.of("dup", 20, 1, 1)));
    }

    @Test
    void closeShutsEveryStageDown() {
        Stages stages = Stages.start(StageConfig.of("x", 10, 2, 2), StageConfig.of("y", 10, 1, 1));
        Stage x = stages.stage("x").orElseThrow();
        Stage y = stages.stage("y").orElseThrow();
        stages.close();
        assertTrue(x.isClosed() && y.isClosed());
        assertEquals(0, x.threadCount() + y.threadCount());
        assertFalse(stages.submit("x", () -> 1, (r, f) -> { }, DIRECT));
        assertEquals(1, stages.metrics().get("x").refused());
    }
}
