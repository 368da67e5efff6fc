package io.riptide.core.runtime.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.riptide.core.runtime.Cancellable;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SimulationTest {
    @Test
    void runsEventsInTimeOrderWithTiesInSchedulingOrder() {
        Simulation sim = new Simulation(1);
        List<String> ran = new ArrayList<>();
        List<Long> times = new ArrayList<>();
        for (String[] e : new String[][] {{"c", "30"}, {"a1", "10"}, {"b", "20"}, {"a2", "10"}, {"a3", "10"}, {"z", "0"}}) {
            sim.at(Long.parseLong(e[1]), () -> {
                ran.add(e[0]);
                times.add(sim.now());
            });
        }
        assertEquals(6, sim.pending());
        sim.runToQuiescence();
        assertEquals(List.of("z", "a1", "a2", "a3", "b", "c"), ran);
        assertEquals(List.of(0L, 10L, 10L, 10L, 20L, 30L), times);
        assertEquals(6, sim.eventsRun());
        assertEquals(0, sim.pending());
    }

    @Test
    void anEventScheduledForNowRunsAfterThoseAlreadyDue() {
        Simulation sim = new Simulation(1);
        List<String> ran = new ArrayList<>();
        sim.at(5, () -> {
            ran.add("first");
            sim.at(0, () -> ran.add("spawned"));
            sim.at(-3, () -> ran.add("negative delay means now"));
        });
        sim.at(5, () -> ran.add("second"));
        sim.runToQuiescence();
        assertEquals(List.of("first", "second", "spawned", "negative delay means now"), ran);
        assertEquals(5, sim.now());
    }

    @Test
    void cancelledEventsNeverRun() {
        Simulation sim = new Simulation(1);
        List<String> ran = new ArrayList<>();
        Cancellable a = sim.at(10, () -> ran.add("a"));
        sim.at(20, () -> ran.add("b"));
        Cancellable c = sim.at(30, () -> ran.add("c"));
        a.cancel();
        sim.at(25, c::cancel);
        sim.runToQuiescence();
        assertEquals(List.of("b"), ran);
        assertEquals(2, sim.eventsRun(), "b and the canceller");
        a.cancel(); // after the fact: harmless
    }

    @Test
    void runUntilStopsAtTheBoundAndAdvancesTheClock() {
        Simulation sim = new Simulation(1);
        List<Long> ran = new ArrayList<>();
        for (long t : new long[] {100, 200, 201, 300}) {
            sim.at(t, () -> ran.add(sim.now()));
        }
        sim.runUntil(200);
        assertEquals(List.of(100L, 200L), ran, "an event exactly at the bound runs");
        assertEquals(200, sim.now());
        assertEquals(2, sim.pending());
        sim.runFor(50);
        assertEquals(250, sim.now());
        assertEquals(List.of(100L, 200L, 201L), ran);
        sim.runUntil(10);
        assertEquals(250, sim.now(), "time never runs backwards");
        sim.runFor(1_000);
        assertEquals(1_250, sim.now());
        assertEquals(List.of(100L, 200L, 201L, 300L), ran);
    }

    @Test
    void theSeedFixesEveryRandomStream() {
        assertEquals(draws(new Simulation(42)), draws(new Simulation(42)));
        assertNotEquals(draws(new Simulation(42)), draws(new Simulation(43)));
        Simulation sim = new Simulation(42);
        assertNotEquals(sim.newRandom().nextLong(), sim.newRandom().nextLong(), "streams are independent");
    }

    private static List<Long> draws(Simulation sim) {
        List<Long> out = new ArrayList<>();
        for (int s = 0; s < 3; s++) {
            SplittableRandom r = sim.newRandom();
            for (int i = 0; i < 5; i++) {
                out.add(r.nextLong());
            }
        }
        return out;
    }
}
