package io.riptide.simulator.seeds;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.report.ResultJson;
import io.riptide.simulator.scenario.PaperScenario;
import io.riptide.simulator.scenario.Scenario;
import io.riptide.simulator.scenario.ScenarioContext;
import io.riptide.simulator.scenario.Scenarios;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SeedsRunTest {
    @TempDir
    Path dir;

    private final StringWriter log = new StringWriter();

    /** Stands in for a real scenario: answers at once, and misses its target at the seeds in {@code missAt}. */
    private record Fake(String name, Set<Long> missAt) implements Scenario {
        @Override
        public String description() {
            return "fake " + name;
        }

        @Override
        public void run(ScenarioContext context) throws Exception {
            context.options().getString("colour", "none");
            boolean met = !missAt.contains(context.seed());
            new ResultJson().put("scenario", name).put("seed", context.seed())
                    .put("share_within_1_25x_nearest", met ? 0.95 : 0.5)
                    .put("riptide_bloom_p80_ms", 40.0 + context.seed()).put("proxy_cache_p80_ms", 60.0)
                    .put("riptide_bloom_failed", 0L).put("unrelated", 1L)
                    .put("target_met", met).write(context.output("result.json"));
            Files.write(context.output(name.equals("service-location") ? "rtt-cdf.png" : "hit-latency-cdf.png"), new byte[] {1});
        }
    }

    private static Scenarios fakes() {
        return new Scenarios(List.of(new Fake("service-location", Set.of(2L)), new Fake("hit-latency", Set.of())));
    }

    private SeedsRun runner(Scenario scenario, Map<String, String> options) {
        return new SeedsRun(scenario, options, Progress.silent(), new PrintWriter(log, true));
    }

    private static JsonNode json(Path file) throws Exception {
        return new ObjectMapper().readTree(Files.readAllBytes(file));
    }

    @Test
    void paperAtSeveralSeedsReportsEverySeedIncludingOneThatMissed() throws Exception {
        Set<String> unread = runner(new PaperScenario(fakes()), Map.of("only", "service-location,hit-latency"))
                .run(SeedList.parse("1-3"), dir);
        assertEquals(Set.of(), unread, "--only is read by the paper run");

        for (long seed = 1; seed <= 3; seed++) {
            Path seedDir = dir.resolve("seed-" + seed);
            assertTrue(Files.exists(seedDir.resolve("report.html")), "each seed keeps its own paper report");
            assertTrue(Files.exists(seedDir.resolve("service-location/result.json")));
            assertTrue(Files.exists(seedDir.resolve("hit-latency/rtt-cdf.png")) || Files.exists(seedDir.resolve("hit-latency/hit-latency-cdf.png")));
            assertEquals(seed, json(seedDir.resolve("result.json")).get("seed").asLong());
        }
        JsonNode top = json(dir.resolve("result.json"));
        // The one-seed contract stays, with the first seed's figures.
        assertEquals("paper", top.get("scenario").asText());
        assertEquals(1, top.get("seed").asLong());
        assertEquals(2, top.get("figures").asLong());
        assertEquals(2, top.get("targets_met").asLong());
        assertTrue(top.get("target_met").asBoolean());
        assertEquals("[1,2,3]", top.get("seeds").toString());
        assertEquals(3, top.get("seeds_run").asLong());
        assertEquals(2, top.get("target_met_seeds").asLong());
        assertFalse(top.get("target_met_every_seed").asBoolean());
        JsonNode seed2 = top.get("per_seed").get(1);
        assertEquals(2, seed2.get("seed").asLong());
        assertFalse(seed2.get("target_met").asBoolean(), "the seed that missed is reported as missed");
        assertEquals(1, seed2.get("targets_met").asLong());
        assertEquals("[\"hit-latency\"]", seed2.get("scenarios_met").toString());

        JsonNode location = top.get("per_figure").get(0);
        assertEquals("service-location", location.get("scenario").asText());
        assertEquals(2, location.get("target_met_seeds").asLong());
        assertEquals(0.5, location.get("per_seed").get(1).get("share_within_1_25x_nearest").asDouble());
        assertEquals("seed-2/service-location", location.get("per_seed").get(1).get("dir").asText());
        assertFalse(location.get("per_seed").get(1).has("unrelated"), "only the target's own figures");

        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("<td class=\"missed\">2 of 3</td>"), html);
        assertTrue(html.contains("<td class=\"met\">3 of 3</td>"), html);
        assertTrue(html.contains("<td class=\"missed\">target missed</td><td>0.5</td>"), html);
        assertTrue(html.contains("1 of 2 targets met at every seed."), html);
        assertTrue(html.contains("<img src=\"seeds-met.png\""));
        assertTrue(html.contains("<img src=\"seed-1/service-location/rtt-cdf.png\""), html);
        assertTrue(html.contains("href=\"seed-2/report.html#service-location\""), html);
        assertTrue(Files.size(dir.resolve("seeds-met.png")) > 100);
        assertTrue(log.toString().contains("paper: seed 2 (2 of 3)"), log.toString());
        assertTrue(log.toString().contains("paper: seed 2: target missed (1 of 2 figures); 1 of 2 seeds run so far met the target"),
                log.toString());
    }

    @Test
    void oneScenarioAtSeveralSeedsKeepsItsFieldsAndAddsEachSeeds() throws Exception {
        Scenario location = fakes().find("service-location").orElseThrow();
        Set<String> unread = runner(location, Map.of("colour", "red", "typo", "x")).run(SeedList.parse("2,1"), dir);
        assertEquals(Set.of("typo"), unread);

        JsonNode top = json(dir.resolve("result.json"));
        assertEquals(2, top.get("seed").asLong(), "the first seed listed gives the top-level figures");
        assertEquals(0.5, top.get("share_within_1_25x_nearest").asDouble());
        assertFalse(top.get("target_met").asBoolean());
        assertEquals("[2,1]", top.get("seeds").toString());
        assertEquals(1, top.get("target_met_seeds").asLong());
        assertFalse(top.get("target_met_every_seed").asBoolean());
        assertFalse(top.has("per_figure"));
        JsonNode first = top.get("per_seed").get(0);
        assertEquals(2, first.get("seed").asLong());
        assertFalse(first.get("target_met").asBoolean());
        assertEquals(0.5, first.get("share_within_1_25x_nearest").asDouble());
        assertTrue(top.get("per_seed").get(1).get("target_met").asBoolean());
        for (String seed : new String[] {"seed-1", "seed-2"}) {
            assertTrue(Files.exists(dir.resolve(seed).resolve("report.html")), "each seed's one-figure report");
            assertTrue(Files.exists(dir.resolve(seed).resolve("rtt-cdf.png")));
        }
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("<td class=\"missed\">1 of 2</td>"), html);
        assertTrue(html.contains("href=\"seed-2/report.html\""), html);
        assertFalse(Files.exists(dir.resolve("seeds-met.png")), "one figure needs no chart of figures");

        // The seed's own directory is just what a one-seed run writes: same bytes.
        Path alone = dir.resolve("alone");
        SingleSeedRun.run(location, 2, alone, Map.of("colour", "red"), Progress.silent());
        assertEquals(Files.readString(alone.resolve("result.json")), Files.readString(dir.resolve("seed-2/result.json")));
        assertEquals(Files.readString(alone.resolve("report.html")), Files.readString(dir.resolve("seed-2/report.html")));
    }

    @Test
    void allSeedsMetIsSaidSoAndAScenarioWithoutATargetHasNoVerdict() throws Exception {
        runner(fakes().find("hit-latency").orElseThrow(), Map.of()).run(SeedList.parse("1-2"), dir.resolve("met"));
        JsonNode met = json(dir.resolve("met/result.json"));
        assertTrue(met.get("target_met_every_seed").asBoolean());
        assertEquals(2, met.get("target_met_seeds").asLong());
        assertEquals(42.0, met.get("per_seed").get(1).get("riptide_bloom_p80_ms").asDouble());

        Scenario noTarget = new Scenario() {
            @Override
            public String name() {
                return "no-target";
            }

            @Override
            public String description() {
                return "nothing to meet";
            }

            @Override
            public void run(ScenarioContext context) throws Exception {
                new ResultJson().put("scenario", name()).put("seed", context.seed()).write(context.output("result.json"));
            }
        };
        runner(noTarget, Map.of()).run(SeedList.parse("3"), dir.resolve("none"));
        JsonNode none = json(dir.resolve("none/result.json"));
        assertTrue(none.get("per_seed").get(0).get("target_met").isNull(), "no target is not a missed target");
        assertFalse(none.get("target_met_every_seed").asBoolean());
        assertFalse(Files.exists(dir.resolve("none/report.html")), "no figure, no report");
    }

    @Test
    void aRunCutShortSaysHowManySeedsRanAndCountsOutOfThose() throws Exception {
        runner(new PaperScenario(fakes()), Map.of("only", "service-location,hit-latency")).run(SeedList.parse("1-2"), dir);
        // As the summary stood after the first two of five seeds.
        SeedSummary partial = SeedSummary.collect(dir, "paper", SeedList.parse("1-5"), List.of(1L, 2L));
        partial.writeJson(dir);
        SeedsReport.write(dir, partial);
        JsonNode top = json(dir.resolve("result.json"));
        assertEquals("[1,2,3,4,5]", top.get("seeds").toString());
        assertEquals(2, top.get("seeds_run").asLong());
        assertFalse(top.get("target_met_every_seed").asBoolean(), "seeds not run are not met");
        String html = Files.readString(dir.resolve("report.html"));
        assertTrue(html.contains("Seeds 1, 2, 3, 4, 5; 2 of 5 run so far."), html);
        assertTrue(html.contains("<td class=\"met\">2 of 2</td>") && html.contains("<td class=\"missed\">1 of 2</td>"), html);
        assertTrue(html.contains("1 of 2 targets met at every seed run so far."), html);
    }
}
