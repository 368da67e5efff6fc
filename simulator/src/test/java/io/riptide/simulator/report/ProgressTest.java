package io.riptide.simulator.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ProgressTest {
    private final StringWriter text = new StringWriter();
    private final AtomicLong clock = new AtomicLong();

    @Test
    void plainOutputPrintsAboutOneLinePerTenth() {
        Progress p = new Progress(new PrintWriter(text), false, clock::get);
        p.begin("routing", 1000);
        for (int i = 0; i < 1000; i++) {
            clock.addAndGet(1_000_000L);
            p.step();
        }
        p.finish();
        String[] lines = text.toString().split("\n");
        assertEquals(11, lines.length, text.toString());
        assertEquals("routing: started, 1000 steps", lines[0]);
        assertEquals("routing: 50% (500/1000  elapsed 0:00  ETA 0:00)", lines[5]);
        assertEquals("routing: done, 1000/1000 in 0:01", lines[10]);
        assertTrue(text.toString().indexOf('\r') < 0);
    }

    @Test
    void terminalBarRedrawsAtMostFiveTimesASecond() {
        Progress p = new Progress(new PrintWriter(text), true, clock::get);
        p.begin("build", 100_000);
        for (int i = 0; i < 100_000; i++) {
            clock.addAndGet(10_000L); // 1 s in all
            p.step();
        }
        long redraws = text.toString().chars().filter(c -> c == '\r').count();
        assertTrue(redraws >= 4 && redraws <= 5, "redraws: " + redraws);
        assertTrue(text.toString().contains("]  80%  80000/100000  elapsed 0:00"), text.toString());
    }

    @Test
    void etaExtrapolatesFromElapsedTime() {
        Progress p = new Progress(new PrintWriter(text), false, clock::get);
        p.begin("x", 10);
        clock.addAndGet(30_000_000_000L);
        p.advance(5);
        assertTrue(text.toString().contains("50% (5/10  elapsed 0:30  ETA 0:30)"), text.toString());
        assertEquals("1:01:05", Progress.duration(3_665_000_000_000L));
    }
}
