package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.riptide.cli.bench.HitThroughputBench;
import io.riptide.cli.bench.NginxServer;
import io.riptide.cli.bench.PlaceholderProxy;
import io.riptide.cli.bench.SquidProxy;
import io.riptide.cli.bench.SquidRequired;
import io.riptide.cli.bench.Wrk;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code riptide bench proxy-overhead} and {@code hit-throughput} run end to end and write their contract fields,
 * measuring Riptide's proxy and a test stand-in (which checks the harness apart from the proxy). Squid must be
 * installed, unless {@code RIPTIDE_NO_SQUID=1} opts out of comparing with it; the hit-throughput runs need wrk and
 * are skipped without it (nginx is measured when installed).
 */
@Timeout(120)
class BenchProxyTest {
    private static final List<Integer> SIZES = List.of(1024, 4096, 10240, 40960, 102400, 409600);

    @TempDir
    Path dir;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int runWithPlaceholder(String... args) {
        CommandLine cl = new CommandLine(new BenchCommand())
                .addSubcommand("proxy-overhead", new BenchCommand.ProxyOverhead(false, PlaceholderProxy::new, SquidProxy::installed))
                .addSubcommand("hit-throughput", new BenchCommand.HitThroughput(false, setup -> new PlaceholderProxy()));
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute(args);
    }

    private JsonNode result() throws Exception {
        return new ObjectMapper().readTree(Files.readAllBytes(dir.resolve("result.json")));
    }

    @Test
    void proxyOverheadMeasuresEveryRouteAtEverySizeAndCarriesThePaperTable() throws Exception {
        assertEquals(0, runWithPlaceholder("proxy-overhead", "--out", dir.toString(), "--requests", "20"), err.toString());
        JsonNode json = result();
        boolean squid = SquidRequired.installed();
        assertEquals(SIZES.size(), json.get("rows").size(), json.toString());
        for (int i = 0; i < SIZES.size(); i++) {
            JsonNode row = json.get("rows").get(i);
            assertEquals(SIZES.get(i), row.get("size").asInt());
            for (String field : List.of("direct_p50_ms", "direct_p99_ms", "proxy_p50_ms", "proxy_p99_ms")) {
                assertTrue(row.get(field).asDouble() > 0, field + " in " + row);
            }
            assertTrue(row.get("direct_p99_ms").asDouble() >= row.get("direct_p50_ms").asDouble(), row.toString());
            for (String field : List.of("squid_p50_ms", "squid_p99_ms", "squid_added_p50_ms")) {
                assertEquals(squid, row.get(field).isNumber(), field + " with squid installed: " + squid + ", row " + row);
            }
            assertTrue(row.get("proxy_added_p50_ms").isNumber(), row.toString());
        }
        assertEquals("placeholder", json.get("proxy").asText());
        assertEquals(squid ? "cache off" : "unavailable", json.get("squid").asText());
        assertTargetMetFollowsFromTheRows(json);
        assertEquals(6, json.get("paper_rows").size());
        assertEquals(1.35, json.get("paper_rows").get(0).get("direct_mean_ms").asDouble());
        assertEquals(63.35, json.get("paper_rows").get(5).get("proxy_mean_ms").asDouble());
        assertTrue(json.get("target_met").isBoolean());
        assertTrue(json.get("machine").get("cores").asInt() > 0);
        assertTrue(Files.size(dir.resolve("proxy-overhead.png")) > 1000);
        assertEquals(1 + SIZES.size() * (squid ? 3 : 2), Files.readAllLines(dir.resolve("proxy-overhead.csv")).size());
        assertTrue(out.toString().contains("400 KB"), out.toString());
        // The large object's figures on their own, the same as its row's.
        JsonNode large = json.get("rows").get(5);
        assertEquals(large.get("proxy_added_p50_ms").asDouble(), json.get("proxy_added_p50_ms_400k").asDouble());
        assertEquals(squid, json.get("squid_added_p50_ms_400k").isNumber(), json.toString());
        assertTrue(json.get("proxy_adds_less_than_squid_400k").isBoolean(), json.toString());
    }

    @Test
    void proxyOverheadMeasuresRiptidesProxyInPassThroughMode() throws Exception {
        CliRun cli = new CliRun();
        assertEquals(0, cli.run("bench", "proxy-overhead", "--out", dir.toString(), "--requests", "20"), cli.err());
        JsonNode json = result();
        assertEquals("riptide proxy (pass-through)", json.get("proxy").asText());
        for (JsonNode row : json.get("rows")) {
            assertTrue(row.get("proxy_p50_ms").asDouble() > 0, row.toString());
            assertTrue(row.get("proxy_added_p50_ms").isNumber(), row.toString());
            assertEquals(SquidRequired.installed(), row.get("squid_added_p50_ms").isNumber(), row.toString());
        }
        assertTargetMetFollowsFromTheRows(json);
    }

    /**
     * The verdict is the rows' own: at every size the proxy adds no more than the target up to 10 KB and less than
     * Squid adds; without Squid's figures it cannot be met.
     */
    private static void assertTargetMetFollowsFromTheRows(JsonNode json) {
        assertTrue(json.get("target_met").isBoolean(), json.toString());
        double target = json.get("target").get("proxy_added_p50_ms_at_most").asDouble();
        long upTo = json.get("target").get("up_to_size").asLong();
        assertEquals(0.25, target);
        assertEquals(10240, upTo);
        boolean met = json.get("rows").size() > 0;
        for (JsonNode row : json.get("rows")) {
            JsonNode proxyAdds = row.get("proxy_added_p50_ms");
            JsonNode squidAdds = row.get("squid_added_p50_ms");
            // Each figure is checked against the row's latencies too (to the six digits the JSON keeps), so a wrong
            // subtraction cannot pass as a verdict.
            assertEquals(row.get("proxy_p50_ms").asDouble() - row.get("direct_p50_ms").asDouble(), proxyAdds.asDouble(), 1e-4, row.toString());
            if (squidAdds.isNumber()) {
                assertEquals(row.get("squid_p50_ms").asDouble() - row.get("direct_p50_ms").asDouble(), squidAdds.asDouble(), 1e-4,
                        row.toString());
            }
            met &= proxyAdds.isNumber() && squidAdds.isNumber()
                    && (row.get("size").asLong() > upTo || proxyAdds.asDouble() <= target)
                    && proxyAdds.asDouble() < squidAdds.asDouble();
        }
        assertEquals(met, json.get("target_met").asBoolean(), "target_met must follow from the rows: " + json);
    }

    @Test
    void hitThroughputLoadsEverySystemWithWrkAndServesOnlyHits() throws Exception {
        Assumptions.assumeTrue(Wrk.binary().isPresent(), "wrk is not installed (apt-get install wrk)");
        boolean squid = SquidRequired.installed();
        boolean nginx = NginxServer.binary().isPresent();
        assertEquals(0, runWithPlaceholder("hit-throughput", "--out", dir.toString(), "--seconds", "1", "--connections", "8",
                "--warmup", "0", "--open-loop", "1"), err.toString());
        JsonNode json = result();
        for (String field : List.of("rps_1k", "rps_10k", "p99_ms_1k", "p50_ms_1k", "p99_ms_10k", "responses_1k")) {
            assertTrue(json.get(field).asDouble() > 0, field + " in " + json);
        }
        for (String size : List.of("_1k", "_10k", "_100k")) {
            for (String system : List.of("riptide_memory", "riptide_overlay", "squid", "nginx")) {
                boolean measured = system.startsWith("riptide") || (system.equals("squid") ? squid : nginx);
                for (String figure : List.of("_rps", "_p50_ms", "_p99_ms", "_p999_ms")) {
                    JsonNode v = json.get(system + figure + size);
                    assertEquals(measured, v.isNumber() && v.asDouble() > 0, system + figure + size + " in " + json);
                }
                if (measured) {
                    assertEquals(0, json.get(system + "_errors" + size).asLong(), json.toString());
                }
            }
        }
        // The old rps_1k is the memory row's figure.
        assertEquals(json.get("riptide_memory_rps_1k").asDouble(), json.get("rps_1k").asDouble());
        assertEquals(8, json.get("connections").asInt());
        assertEquals(2, json.get("wrk_threads").asInt());
        assertEquals(0, json.get("warmup_seconds").asInt());
        assertEquals(0, json.get("origin_requests_during_load").asLong(), json.toString());
        // The stand-in has no JVM of its own, so no GC log; the open-loop load ran all the same, at half the 1 KB rate.
        assertTrue(json.get("gc_p999_ms").isNull(), json.toString());
        assertEquals("g1", json.get("gc_collector").asText());
        assertEquals(Math.floor(json.get("rps_1k").asDouble() / 2), json.get("open_loop_rate").asDouble(), 1.0, json.toString());
        assertTrue(json.get("open_loop_p99_ms").asDouble() > 0, json.toString());
        assertEquals(0, json.get("open_loop_errors").asLong(), json.toString());
        assertTrue(json.get("open_loop_saturated").isBoolean(), json.toString());
        JsonNode targets = json.get("targets");
        assertTrue(targets.get("memory_rps_gt_squid_1k").isBoolean() && targets.get("gc_p999_le_5ms").isBoolean(), targets.toString());
        assertEquals(squid, targets.get("origin_requests_zero").asBoolean(), targets.toString());
        assertTrue(Files.size(dir.resolve("hit-throughput.png")) > 1000);
        assertTrue(Files.size(dir.resolve("hit-throughput-p99.png")) > 1000);
        long systems = 2 + (squid ? 1 : 0) + (nginx ? 1 : 0);
        assertEquals(1 + 3 * systems, Files.readAllLines(dir.resolve("hit-throughput.csv")).size());
        assertTrue(out.toString().contains("Riptide memory hits"), out.toString());
    }

    @Test
    void hitThroughputWithoutWrkSaysHowToInstallItAndWritesNulls() throws Exception {
        CommandLine cl = new CommandLine(new BenchCommand()).addSubcommand("hit-throughput", new BenchCommand.HitThroughput(false,
                setup -> new PlaceholderProxy(),
                () -> new HitThroughputBench.Tools(Optional.empty(), mb -> Optional.empty(), Optional::empty)));
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        assertEquals(0, cl.execute("hit-throughput", "--out", dir.toString()), err.toString());
        assertTrue(err.toString().contains("apt-get install wrk"), err.toString());
        JsonNode json = result();
        for (String field : List.of("rps_1k", "riptide_memory_rps_100k", "squid_rps_1k", "nginx_p99_ms_10k", "gc_p999_ms",
                "open_loop_p99_ms", "origin_requests_during_load")) {
            assertTrue(json.get(field).isNull(), field + " in " + json);
        }
        assertFalse(json.get("targets").get("all_met").asBoolean(), json.toString());
        assertTrue(json.get("not_measured").get("nginx").asText().contains("apt-get install wrk"), json.toString());
    }

    @Test
    void hitThroughputServesHitsThroughRiptidesProxyInItsOwnJvm() throws Exception {
        Assumptions.assumeTrue(Wrk.binary().isPresent(), "wrk is not installed (apt-get install wrk)");
        CliRun cli = new CliRun();
        assertEquals(0, cli.run("bench", "hit-throughput", "--out", dir.toString(), "--seconds", "1", "--connections", "8",
                "--warmup", "0", "--open-loop", "2"), cli.err());
        JsonNode json = result();
        assertEquals("riptide proxy (memory hits)", json.get("proxy").asText());
        assertTrue(json.get("rps_1k").asDouble() > 0 && json.get("rps_10k").asDouble() > 0, json.toString());
        assertTrue(json.get("riptide_overlay_rps_100k").asDouble() > 0, json.toString());
        assertEquals(0, json.get("origin_requests_during_load").asLong(), "every request was a hit: " + json);
        // The proxy's own JVM logged its GC; the pauses of the open-loop window were counted (perhaps none).
        assertTrue(json.get("gc_pauses").isNumber() && json.get("gc_p999_ms").isNumber(), json.toString());
        assertTrue(Files.size(dir.resolve("proxy-gc.log")) > 0);
        assertTrue(json.get("open_loop_p50_ms").asDouble() > 0, json.toString());
    }

    @Test
    void optionsOutOfRangeAreUsageErrors() {
        CliRun cli = new CliRun();
        assertEquals(2, cli.run("bench", "proxy-overhead", "--out", dir.toString(), "--requests", "0"));
        assertEquals(2, cli.run("bench", "hit-throughput", "--out", dir.toString(), "--connections", "0"));
        assertTrue(cli.err().contains("--connections must be between 1 and 1024"), cli.err());
        assertEquals(2, cli.run("bench", "hit-throughput", "--out", dir.toString(), "--proxy-gc", "cms"));
        assertTrue(cli.err().contains("--proxy-gc must be one of"), cli.err());
        assertEquals(2, cli.run("bench", "hit-throughput", "--out", dir.toString(), "--duration", "500ms"));
        assertTrue(cli.err().contains("--duration must be whole seconds"), cli.err());
        // The earlier --seconds still sets the same duration (a default of --duration must not overwrite it).
        assertEquals(2, cli.run("bench", "hit-throughput", "--out", dir.toString(), "--seconds", "500ms"));
        assertTrue(cli.err().contains("--duration must be whole seconds between 1s and 1h, got 500ms"), cli.err());
    }
}
