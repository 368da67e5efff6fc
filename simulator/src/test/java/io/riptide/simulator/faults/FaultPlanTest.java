package io.riptide.simulator.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A plan is fixed by its seed, heals within its window, and leaving a kind out keeps the others' schedule. */
class FaultPlanTest {
    private static final long S = 1_000_000_000L;
    private static final List<Integer> HOSTS = IntStream.range(0, 40).boxed().toList();

    private static FaultPlan plan(long seed, Set<FaultKind> kinds) {
        List<Integer> crashable = HOSTS.subList(4, 40); // 0-3 are the observed proxies
        return FaultPlan.draw(new FaultPlan.Space(30 * S, 40 * S, 5, crashable, HOSTS, List.of(4, 5, 6), kinds),
                new SplittableRandom(seed));
    }

    @Test
    void theSameSeedDrawsTheSamePlan() {
        assertEquals(plan(7, EnumSet.allOf(FaultKind.class)), plan(7, EnumSet.allOf(FaultKind.class)));
        assertFalse(plan(7, EnumSet.allOf(FaultKind.class)).equals(plan(8, EnumSet.allOf(FaultKind.class))));
    }

    @Test
    void everyKindAppearsAndEveryFaultButASkewHealsWithinTheWindow() {
        for (long seed = 1; seed <= 50; seed++) {
            FaultPlan plan = plan(seed, EnumSet.allOf(FaultKind.class));
            plan.counts().forEach((kind, n) -> assertTrue(n >= 1 && n <= 3, kind + ": " + n));
            for (Fault f : plan.faults()) {
                assertTrue(f.startNanos() >= 30 * S && f.startNanos() < 70 * S, f.toString());
                assertEquals(f.kind() != FaultKind.CLOCK_SKEW, f.heals(), f.toString());
                if (f.heals()) {
                    assertTrue(f.endNanos() <= 70 * S, f.toString());
                }
                if (f.kind() == FaultKind.CRASH) {
                    assertTrue(f.vertices().get(0) >= 4, "an observed proxy never crashes: " + f);
                }
                if (f.kind() == FaultKind.PARTITION) {
                    assertTrue(!f.vertices().isEmpty() && f.vertices().size() <= 2, "at most half the 5 stubs cut off: " + f);
                }
            }
            assertTrue(plan.healedByNanos(30 * S) <= 70 * S);
        }
    }

    @Test
    void leavingAKindOutKeepsEveryOtherKindsSchedule() {
        FaultPlan all = plan(11, EnumSet.allOf(FaultKind.class));
        FaultPlan noPartitions = plan(11, EnumSet.complementOf(EnumSet.of(FaultKind.PARTITION)));
        assertEquals(all.faults().stream().filter(f -> f.kind() != FaultKind.PARTITION).toList(), noPartitions.faults());
        assertTrue(plan(11, EnumSet.noneOf(FaultKind.class)).faults().isEmpty());
    }

    @Test
    void crashesSkewsAndSlowDisksFavourTheKeyNodes() {
        long onKey = 0;
        long total = 0;
        for (long seed = 1; seed <= 200; seed++) {
            for (Fault f : plan(seed, EnumSet.of(FaultKind.CRASH)).faults()) {
                total++;
                onKey += List.of(4, 5, 6).contains(f.vertices().get(0)) ? 1 : 0;
            }
        }
        // Half of the picks go to the 3 key nodes of 36 crashable, so about 54% of the crashes land on them.
        assertTrue(onKey > total * 0.4 && onKey < total * 0.7, onKey + " of " + total);
    }
}
