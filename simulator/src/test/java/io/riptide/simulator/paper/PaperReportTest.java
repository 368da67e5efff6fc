package io.riptide.simulator.paper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PaperReportTest {
    @TempDir
    Path dir;

    @Test
    void eachFigureSitsBesideThePapersNumbersWithItsVerdictAndChart() throws Exception {
        PaperFigure met = new PaperFigure("alpha", "Fig. 1", "what alpha measures", "paper says <50 ms", "ours ≤ 1.25×",
                List.of("share", "absent_field"), List.of("a.png"));
        PaperFigure missed = new PaperFigure("beta", "Fig. 2", "what beta measures", "paper says flat", "ours ≥ 10×",
                List.of("ratio"), List.of("b.png"));
        PaperFigure notRun = new PaperFigure("gamma", "Fig. 3", "never run", "-", "-", List.of(), List.of());
        Files.createDirectories(dir.resolve("alpha"));
        Files.writeString(dir.resolve("alpha/result.json"), "{\"share\": 0.97, \"target_met\": true}");
        Files.write(dir.resolve("alpha/a.png"), new byte[] {1});
        Files.createDirectories(dir.resolve("beta"));
        Files.writeString(dir.resolve("beta/result.json"), "{\"ratio\": 4.3, \"target_met\": false}");

        assertEquals(1, PaperReport.write(dir, 7, List.of(met, missed, notRun)));
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("Seed 7"));
        assertTrue(html.contains("paper says &lt;50 ms"), "paper text is escaped");
        assertTrue(html.contains("<img src=\"alpha/a.png\""));
        assertTrue(!html.contains("beta/b.png"), "a chart that was not drawn is not linked");
        assertTrue(html.contains("<code>share</code></th><td>0.97"));
        assertTrue(!html.contains("absent_field"));
        assertTrue(html.contains("class=\"met\">target met") && html.contains("class=\"missed\">target missed")
                && html.contains("not run"));
        assertTrue(html.contains("1 of 3 targets met."));
    }

    @Test
    void aSingleRunGetsItsOwnReportWithChartsBesideIt() throws Exception {
        Files.writeString(dir.resolve("result.json"), "{\"origin_fetches\": 12, \"target_met\": true}");
        Files.write(dir.resolve("waves.png"), new byte[] {1});
        assertEquals(1, PaperReport.writeSingle(dir, 1, PaperFigures.find("origin-shield").orElseThrow()));
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("<img src=\"waves.png\""), html);
        assertTrue(html.contains("<code>origin_fetches</code></th><td>12"));
        assertTrue(html.contains("1 of 1 targets met."));
        for (String name : new String[] {"service-location", "hit-latency", "service-discovery", "flash-crowd", "placement-load",
                "dissemination", "push-caching", "routing-scale", "churn", "trace-replay", "origin-shield"}) {
            assertTrue(PaperFigures.find(name).isPresent(), name + " has a report entry");
        }
    }
}
