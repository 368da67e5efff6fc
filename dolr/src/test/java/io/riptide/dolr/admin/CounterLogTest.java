package io.riptide.dolr.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.slf4j.event.Level;

/** Counters that rose between two checks become one line each; unchanged ones and the first check stay silent. */
class CounterLogTest {
    private static final CounterLog.Watch BUSY = new CounterLog.Watch("t", Level.WARN, "riptide_inserts_total", "overloaded",
            "refused, too busy");
    private static final CounterLog.Watch PLACED = new CounterLog.Watch("t", Level.INFO, "riptide_placed_total", null,
            "replicas placed");

    private static StatusReport report(long overloaded, long inserted, long placed) {
        ReportPart.Builder b = ReportPart.builder();
        b.metrics().counter("riptide_inserts_total", "I.", "outcome", Map.of("overloaded", overloaded))
                .counter("riptide_other_total", "O.", inserted)
                .counter("riptide_placed_total", "P.", placed);
        return new StatusReport("t", List.of(b.build()));
    }

    @Test
    void logsOneLinePerCounterThatRose() {
        CounterLog log = new CounterLog(List.of(BUSY, PLACED), Duration.ofSeconds(10));
        assertEquals(Map.of(), log.moved(report(5, 1, 2)), "the first check only remembers");
        assertEquals(Map.of(), log.moved(report(5, 9, 2)), "unwatched counters are not logged");
        assertEquals(Map.of(BUSY, "refused, too busy: 3 in the last 10s", PLACED, "replicas placed: 1 in the last 10s"),
                log.moved(report(8, 9, 3)));
        assertEquals(Map.of(), log.moved(report(8, 9, 3)));
    }
}
