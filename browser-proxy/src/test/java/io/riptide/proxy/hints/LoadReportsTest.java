package io.riptide.proxy.hints;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.hint.HintMessages.LoadReport;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.sim.SimEnv;
import io.riptide.core.runtime.sim.SimNetwork;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.client.ObjectRead;
import io.riptide.dolr.client.OverlayAccess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A proxy's load reports in the simulated runtime: once per period, the most requested objects
 * first, at most so many per period and so many tallied, nothing while idle, nothing after stop.
 */
class LoadReportsTest {
    private static final Id MANAGERS = Id.hash("managers");
    private static final long S = 1_000_000_000L;

    private final List<LoadReport> sent = new ArrayList<>();
    private Simulation sim;
    private SimEnv env;

    /** An overlay that only records what is anycast to the managers. */
    private final OverlayAccess recording = new OverlayAccess() {
        @Override
        public void read(Id guid, int ttl, Consumer<ObjectRead> done) {
            throw new AssertionError("load reports read nothing");
        }

        @Override
        public void anycast(Id service, WireMessage payload, int ttl) {
            assertEquals(MANAGERS, service);
            sent.add((LoadReport) payload);
        }

        @Override
        public void anycast(Id service, WireMessage payload, Id fallbackService, WireMessage fallbackPayload, int ttl) {
            throw new AssertionError("load reports have no fallback");
        }

        @Override
        public void ask(Id service, io.riptide.core.wire.Question question, int ttl, Duration within,
                        java.util.function.Consumer<java.util.Optional<io.riptide.core.wire.Answer>> done) {
            done.accept(java.util.Optional.empty());
        }

        @Override
        public Duration readDeadline() {
            return Duration.ofSeconds(3);
        }
    };

    @BeforeEach
    void runtime() {
        sim = new Simulation(1);
        env = new SimNetwork(sim, (a, b) -> 0).start(Id.hash("proxy"), 0, e -> (from, message) -> { });
    }

    @Test
    void reportsTheMostRequestedObjectsEachPeriodAndNoMore() {
        LoadReports reports = new LoadReports(env, recording, MANAGERS, Duration.ofSeconds(1), 3, 100, 8);
        reports.start();
        for (int object = 0; object < 10; object++) {
            for (int n = 0; n <= object; n++) {
                reports.count(Id.hash("object " + object));
            }
        }
        sim.runFor(S + 1);
        assertEquals(List.of(new LoadReport(Id.hash("object 9"), 10), new LoadReport(Id.hash("object 8"), 9),
                new LoadReport(Id.hash("object 7"), 8)), sent, "three reports, the busiest objects first");
        sim.runFor(5 * S);
        assertEquals(3, sent.size(), "a new tally each period: nothing goes while nothing is requested");
        assertEquals(3, reports.reportsSent());
        assertEquals(27, reports.requestsReported());
    }

    @Test
    void theTallyIsBoundedAndStopEndsTheReports() {
        LoadReports reports = new LoadReports(env, recording, MANAGERS, Duration.ofSeconds(1), 16, 4, 8);
        reports.start();
        for (int object = 0; object < 100; object++) {
            reports.count(Id.hash("object " + object));
        }
        reports.count(Id.hash("object 0"));
        sim.runFor(S + 1);
        assertEquals(4, sent.size(), "at most 4 objects tallied between reports");
        assertTrue(sent.contains(new LoadReport(Id.hash("object 0"), 2)), "one already tallied keeps counting: " + sent);
        reports.stop();
        reports.count(Id.hash("object 1"));
        sim.runFor(10 * S);
        assertEquals(4, sent.size(), "stopped");
    }
}
