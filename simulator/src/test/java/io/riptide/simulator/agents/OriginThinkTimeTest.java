package io.riptide.simulator.agents;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.sim.SimEnv;
import io.riptide.core.runtime.sim.SimNetwork;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.gateway.origin.OriginRequest;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Origin think time: PolyMix-3's servers answer after an exponentially distributed pause. */
class OriginThinkTimeTest {
    private static final String URL = "http://slow.example/page";

    private static List<Long> fetchTimes(SimulatedOrigin origin, int n) {
        Simulation sim = new Simulation(1);
        SimEnv env = new SimNetwork(sim, (a, b) -> 0).start(Id.hash("fetcher"), 0, e -> (from, m) -> { });
        origin.serve(new OriginDocument(URL, 100, 60, Duration.ZERO));
        List<Long> done = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            origin.fetch(env, OriginRequest.get(URI.create(URL))).thenRun(() -> done.add(sim.now()));
        }
        sim.runToQuiescence();
        return done;
    }

    @Test
    void responsesWaitAnExponentialThinkTimeOfTheGivenMean() {
        List<Long> times = fetchTimes(new SimulatedOrigin(1e12, Duration.ofMillis(20), Duration.ofMillis(2500), 7), 4000);
        assertEquals(4000, times.size());
        double meanS = times.stream().mapToLong(Long::longValue).average().orElseThrow() / 1e9 - 0.020;
        assertEquals(2.5, meanS, 0.125, "mean think time");
        long overMean = times.stream().filter(t -> t > 2.52e9).count();
        // Exponential: a share e^-1 (0.37) of the pauses exceed the mean.
        assertTrue(Math.abs(overMean / 4000.0 - Math.exp(-1)) < 0.03, "share above the mean: " + overMean / 4000.0);
    }

    @Test
    void withoutThinkTimeEveryResponseTakesTheFixedLatency() {
        List<Long> times = fetchTimes(new SimulatedOrigin(1e12, Duration.ofMillis(20)), 10);
        assertTrue(times.stream().allMatch(t -> t >= 20_000_000L && t < 20_100_000L), times.toString());
    }
}
