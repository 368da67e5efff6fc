package io.riptide.core.runtime.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.stage.StageConfig;
import io.riptide.core.stage.StageMetrics;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Stages in simulation: bounded queues that refuse, threads, service time on cores a host's stages share. */
class SimStagesTest {
    private static final long US = 1_000;

    private final Simulation sim = new Simulation(3);
    private final SimNetwork net = new SimNetwork(sim, (a, b) -> 0);

    private SimEnv host(int vertex) {
        return net.start(Id.hash("host" + vertex), vertex, env -> (from, m) -> { });
    }

    /** Submits one event to {@code stage} that records when its work ran and when its result came back. */
    private static boolean submit(SimEnv env, String stage, List<long[]> times) {
        long[] t = new long[2];
        boolean queued = env.submit(stage, () -> {
            t[0] = env.nowNanos();
            return 1;
        }, (r, f) -> {
            t[1] = env.nowNanos();
            times.add(t);
        });
        return queued;
    }

    @Test
    void anIdleStageRunsTheWorkAtOnceAndAnswersAfterTheServiceTime() {
        net.defineStage(new SimStageSpec(StageConfig.of("verify", 4, 1, 2), 77 * US));
        SimEnv env = host(1);
        List<long[]> times = new ArrayList<>();
        assertTrue(submit(env, "verify", times));
        sim.runToQuiescence();
        assertEquals(1, times.size());
        assertEquals(0, times.get(0)[0]);
        assertEquals(77 * US, times.get(0)[1]);
    }

    @Test
    void aFullQueueRefusesAndTheThreadsBoundTheWorkInService() {
        // Two threads, a queue of three: two in service, three waiting, the sixth refused.
        net.defineStage(new SimStageSpec(StageConfig.of("crypto", 3, 1, 2), 100 * US));
        SimEnv env = host(1);
        List<long[]> times = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            assertTrue(submit(env, "crypto", times), "event " + i);
        }
        assertFalse(submit(env, "crypto", times), "the queue is full");
        sim.runToQuiescence();
        List<Long> ends = times.stream().map(t -> t[1] / US).toList();
        assertEquals(List.of(100L, 100L, 200L, 200L, 300L), ends);
        StageMetrics m = env.stageMetrics().get("crypto");
        assertEquals(5, m.accepted());
        assertEquals(1, m.refused());
        assertEquals(5, m.completed());
        assertEquals(200 * US, m.maxWaitNanos());
        assertEquals(500 * US, env.cpuBusyNanos());
    }

    @Test
    void stagesOfOneHostShareItsCoresButNotAnotherHosts() {
        net.setCores(2);
        net.defineStage(new SimStageSpec(StageConfig.of("a", 100, 1, 2), 100 * US));
        net.defineStage(new SimStageSpec(StageConfig.of("b", 100, 1, 2), 100 * US));
        SimEnv one = host(1);
        SimEnv two = host(2);
        List<long[]> times = new ArrayList<>();
        // Four threads' worth of work on one host's two cores: the last two wait a service time.
        for (String s : List.of("a", "a", "b", "b")) {
            submit(one, s, times);
        }
        submit(two, "a", times);
        sim.runToQuiescence();
        List<Long> ends = times.stream().map(t -> t[1] / US).sorted().toList();
        assertEquals(List.of(100L, 100L, 100L, 200L, 200L), ends);
        // The work of an event that waited for a core runs when it gets one.
        assertEquals(2, times.stream().filter(t -> t[0] == 100 * US).count());
    }

    @Test
    void anUndefinedStageKeepsTheOlderUnboundedModel() {
        net.setStageServiceTime("old", 5 * US);
        SimEnv env = host(1);
        List<long[]> times = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            assertTrue(submit(env, "old", times));
        }
        sim.runToQuiescence();
        assertTrue(times.stream().allMatch(t -> t[1] == 5 * US));
        assertTrue(env.stageMetrics().isEmpty());
        assertEquals(0, env.cpuBusyNanos());
    }

    @Test
    void aDeadHostsStageNeverCallsBack() {
        net.defineStage(new SimStageSpec(StageConfig.of("verify", 4, 1, 1), 10 * US));
        SimEnv env = host(1);
        List<long[]> times = new ArrayList<>();
        submit(env, "verify", times);
        net.kill(1);
        sim.runToQuiescence();
        assertTrue(times.isEmpty());
    }
}
