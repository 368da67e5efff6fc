package io.riptide.simulator.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.riptide.simulator.report.Progress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A hand-made trace through Riptide and the two baselines, with the baselines' ratios worked out by hand. */
class TraceReplayScenarioTest {
    @TempDir
    Path dir;

    private static String line(int t, String user, String lab, String url, int bytes) {
        return (785433179 + t) + "\t0\t" + user + "\tcs17\t785433174\t" + lab + "\tNov94\t" + url + "\t" + bytes + "\t0.5\n";
    }

    /** The hand-made trace, whose figures each test works out by hand. */
    private Path handTrace() throws Exception {
        Path trace = dir.resolve("trace.tsv");
        Files.writeString(trace, "#ts_sec\tts_usec\tuser_id\tmachine\tsession_start\tgroup\tmonth_dir\turl\tbytes\tretrieval_s\n"
                + line(0, "1", "272", "http://a.example/A", 1000)     // every cache misses
                + line(1, "1", "272", "http://a.example/B", 2000)     // miss
                + line(2, "2", "b19", "http://a.example/A", 1000)     // shared: hit; user 2's own: miss
                + line(3, "1", "272", "http://a.example/A", 1000)     // hit in both
                + line(4, "2", "b19", "http://a.example/C", 500)      // miss
                + line(5, "2", "b19", "http://a.example/C", 500)      // hit in both
                + line(6, "1", "272", "http://a.example/A", 1200)     // a new version: miss everywhere
                + line(7, "2", "b19", "http://a.example/A", 1200)     // shared: hit; own: miss
                + line(8, "2", "b19", "gopher://old.example/1", 10)); // not http: skipped
        return trace;
    }

    @Test
    void hitRatiosOfRiptideTheSharedCacheAndPerClientCaches() throws Exception {
        Path trace = handTrace();
        Path out = Files.createDirectories(dir.resolve("out"));
        // The paper's proxy: every miss asks for an insert, no memory tier.
        new TraceReplayScenario().run(new ScenarioContext(1, out, new ScenarioOptions(Map.of("trace", trace.toString(),
                "nodes", "300", "rate", "1", "settle-s", "20", "proxies-per-lab", "3", "insert-policy", "first-miss",
                "proxy-memory-mb", "0")), Progress.silent()));
        JsonNode json = new ObjectMapper().readTree(Files.readAllBytes(out.resolve("result.json")));
        assertEquals(8, json.get("requests").asInt());
        assertEquals(1, json.get("skipped_invalid_urls").asInt());
        assertEquals(2, json.get("labs").asInt());
        assertEquals(1, json.get("object_changes").asInt());
        assertEquals(0.5, json.get("shared_proxy_hit_ratio").asDouble(), 1e-9);
        assertEquals(3700.0 / 8400, json.get("shared_proxy_byte_hit_ratio").asDouble(), 1e-6);
        assertEquals(0.25, json.get("per_client_hit_ratio").asDouble(), 1e-9);
        // Riptide: the same four hits, each object inserted (or updated) within the second before.
        assertEquals(0.5, json.get("hit_ratio").asDouble(), 1e-9, json.toString());
        assertEquals(3700.0 / 8400, json.get("byte_hit_ratio").asDouble(), 1e-6);
        assertTrue(json.get("target_met").asBoolean(), json.toString());
        // Equal resources: the baselines again with every byte Riptide's stores held at their peak.
        long stores = json.get("riptide_store_bytes_total").asLong();
        assertTrue(stores >= 1200 + 2000 + 500, "at least one copy of each object's current version: " + stores);
        assertEquals(stores, json.get("equal_storage_cache_bytes").asLong());
        assertEquals(0.5, json.get("equal_storage_shared_proxy_hit_ratio").asDouble(), 1e-9, "large enough for all three");
        // Seven trace seconds replayed as eight requests at one a second.
        assertEquals(7.0, json.get("trace_seconds").asDouble(), 1e-9);
        assertEquals(7.0 / 8, json.get("time_compression").asDouble(), 1e-9);
        assertTrue(Files.exists(out.resolve("hit-ratios.png")) && Files.exists(out.resolve("hit-ratio-over-time.csv")));
    }

    @Test
    void theShippedProxyKeepsItsOwnFetchesAndInsertsOnTheSecondSighting() throws Exception {
        Path out = Files.createDirectories(dir.resolve("shipped"));
        new TraceReplayScenario().run(new ScenarioContext(1, out, new ScenarioOptions(Map.of("trace", handTrace().toString(),
                "nodes", "300", "rate", "1", "settle-s", "20", "proxies-per-lab", "3")), Progress.silent()));
        JsonNode json = new ObjectMapper().readTree(Files.readAllBytes(out.resolve("result.json")));
        assertEquals("second-sight", json.get("insert_policy").asText());
        // A, B, A (the other lab's proxy), C: first sightings, each fetched by its proxy and kept, none inserted.
        // User 1's second A and user 2's second C are private hits, and each asks for its insert (two gateway
        // fetches). A's new version is a miss everywhere; the gateway holds A, so it re-fetches it (a third).
        // User 2's private A is the old version: served, not a hit. So 2 hits, and 4 + 3 origin fetches
        // against the shared cache's 4.
        assertEquals(0.25, json.get("hit_ratio").asDouble(), 1e-9, json.toString());
        assertEquals(2, json.get("riptide_answers").get("proxy_private").asInt(), json.toString());
        assertEquals(1, json.get("riptide_answers").get("proxy_private_old_version").asInt(), json.toString());
        assertEquals(4, json.get("proxy_origin_fetches").asInt(), json.toString());
        assertEquals(3, json.get("gateway_origin_fetches").asInt(), json.toString());
        assertEquals(1, json.get("gateway_refreshes").asInt());
        assertEquals(7, json.get("origin_fetches").asInt());
        assertEquals(4, json.get("shared_proxy_origin_fetches").asInt());
        assertEquals(7.0 / 3, json.get("origin_requests_per_url").asDouble(), 1e-5);
        assertFalse(json.get("origin_fetches_target_met").asBoolean());
        // Where the two hits the shared cache has and Riptide lacks went: user 2's first A, two seconds after user
        // 1's in the other lab, fetched by its own proxy (nobody held A: first sightings are not inserted); and
        // user 2's private copy of A's old version a second after the change.
        JsonNode repeats = json.get("riptide_repeat_misses");
        assertEquals(1, repeats.path("origin_miss/1_10s/other_lab/nowhere").asInt(), repeats.toString());
        assertEquals(1, repeats.path("proxy_private/1_10s/other_lab/held").asInt(), repeats.toString());
        assertEquals(2, repeats.size(), repeats.toString());
    }

    @Test
    void underSecondSightThroughGatewayTheStubsSecondSightingIsTheGatewaysOneFetch() throws Exception {
        Path trace = dir.resolve("sightings.tsv");
        // Users 1, 3 and 5 of one lab are on three different proxies (their names' hashes modulo 3).
        Files.writeString(trace, "#ts_sec\tts_usec\tuser_id\tmachine\tsession_start\tgroup\tmonth_dir\turl\tbytes\tretrieval_s\n"
                + line(0, "1", "272", "http://a.example/A", 1000)     // the stub's first sighting: fetched by the proxy, kept
                + line(1, "3", "272", "http://a.example/A", 1000)     // the second: fetched by the gateway, which inserts it
                + line(2, "5", "272", "http://a.example/A", 1000)     // a third proxy reads the inserted copy: a hit
                + line(3, "1", "272", "http://a.example/A", 1000));   // the first proxy's private copy: a hit
        Path out = Files.createDirectories(dir.resolve("through"));
        new TraceReplayScenario().run(new ScenarioContext(1, out, new ScenarioOptions(Map.of("trace", trace.toString(),
                "nodes", "300", "rate", "1", "settle-s", "20", "proxies-per-lab", "3",
                "insert-policy", "second-sight-through-gateway")), Progress.silent()));
        JsonNode json = new ObjectMapper().readTree(Files.readAllBytes(out.resolve("result.json")));
        assertEquals("second-sight-through-gateway", json.get("insert_policy").asText());
        assertEquals(1, json.get("riptide_answers").get("gateway_miss").asInt(), json.toString());
        assertEquals(1, json.get("riptide_answers").get("replica").asInt(), json.toString());
        assertEquals(1, json.get("riptide_answers").get("proxy_private").asInt(), json.toString());
        assertEquals(0.5, json.get("hit_ratio").asDouble(), 1e-9, "the gateway's answer is a miss, not a hit");
        assertEquals(1, json.get("proxy_origin_fetches").asInt(), json.toString());
        assertEquals(1, json.get("gateway_origin_fetches").asInt(), "one fetch answered the second sighting and inserted it");
        assertEquals(1, json.get("proxy_first_sightings").asInt(), json.toString());
    }

    @Test
    void withAGatewayInEachLabOneLabsMissIsTheOtherLabsHitAndTheFetchingGatewayRefreshes() throws Exception {
        Path trace = dir.resolve("labs.tsv");
        Files.writeString(trace, "#ts_sec\tts_usec\tuser_id\tmachine\tsession_start\tgroup\tmonth_dir\turl\tbytes\tretrieval_s\n"
                + line(0, "1", "272", "http://a.example/A", 1000)     // fetched by lab 272's gateway, which inserts it
                + line(1, "2", "b19", "http://a.example/A", 1000)     // lab b19 reads the same name: a hit
                + line(2, "2", "b19", "http://a.example/A", 1200));   // a new version: lab 272's gateway re-fetches it
        Path out = Files.createDirectories(dir.resolve("labs"));
        new TraceReplayScenario().run(new ScenarioContext(1, out, new ScenarioOptions(Map.of("trace", trace.toString(),
                "nodes", "300", "rate", "1", "settle-s", "20", "proxies-per-lab", "3",
                "insert-policy", "through-gateway", "gateways", "each-lab")), Progress.silent()));
        JsonNode json = new ObjectMapper().readTree(Files.readAllBytes(out.resolve("result.json")));
        assertEquals("each-lab", json.get("gateways").asText());
        assertEquals(2, json.get("gateway_count").asInt());
        assertEquals(1, json.get("riptide_answers").get("gateway_miss").asInt(), json.toString());
        assertEquals(1, json.get("gateway_miss_copies").asInt(), "the gateway's answer carried the copy");
        // The answer leaves with the copy once the gateway has stored it, not after its publish reaches the root and
        // the proxy has read it back: gateway_miss_copies above. (A bound on this one miss's latency used to stand here,
        // 560 ms; it held at seed 1 only, and any change to the overlay's schedule moved it: 507 to 862 ms over seeds
        // 1-6 before the leaf-set correction, 790 to 1,326 ms after, while 3,000 requests of the real trace kept their
        // miss p50 within 2 %.)
        assertEquals(1.0 / 3, json.get("hit_ratio").asDouble(), 1e-6, json.toString());
        assertEquals(1, json.get("gateway_refreshes").asInt());
        assertEquals(0, json.get("proxy_origin_fetches").asInt(), json.toString());
        assertEquals(2, json.get("gateway_origin_fetches").asInt(), "the insert and the refresh, nothing twice");
    }

    @Test
    void aGatewayAnswerNobodyFetchedForIsAHitOfTheGatewaysStore() throws Exception {
        // Users 1 and 3 of one lab are on different proxies; if the second asks once the gateway has fetched and stored
        // the first's object but before its publish is found in the overlay, its proxy asks the gateway too, which
        // answers from what it just stored. Earlier, the second joins the fetch still under way (both answers are
        // misses); later, it reads the published copy. That window is about 30 ms wide (625-660 ms at seed 1) and
        // moves with the overlay's schedule (it was near 500 ms before the leaf-set correction), so the second request
        // (1/rate after the first) is swept from 450 ms to 900 ms in 15 ms steps until one lands in it; every run must
        // count what it got rightly.
        int landed = 0;
        for (int gapMs = 450; gapMs <= 900; gapMs += 15) {
            Path trace = dir.resolve("store-" + gapMs + ".tsv");
            Files.writeString(trace, "#ts_sec\tts_usec\tuser_id\tmachine\tsession_start\tgroup\tmonth_dir\turl\tbytes\tretrieval_s\n"
                    + line(0, "1", "272", "http://a.example/A", 1000)
                    + line(1, "3", "272", "http://a.example/A", 1000));
            Path out = Files.createDirectories(dir.resolve("store-" + gapMs));
            new TraceReplayScenario().run(new ScenarioContext(1, out, new ScenarioOptions(Map.of("trace", trace.toString(),
                    "nodes", "300", "rate", String.valueOf(1_000.0 / gapMs), "settle-s", "20", "proxies-per-lab", "3",
                    "insert-policy", "through-gateway")), Progress.silent()));
            JsonNode json = new ObjectMapper().readTree(Files.readAllBytes(out.resolve("result.json")));
            String at = "second request " + gapMs + " ms later: " + json;
            int fromStore = json.get("riptide_answers").path("gateway_store").asInt();
            int replica = json.get("riptide_answers").path("replica").asInt();
            assertEquals(1, json.get("gateway_origin_fetches").asInt(), "fetched once, for the first request; " + at);
            assertEquals(2 - fromStore - replica, json.get("riptide_answers").get("gateway_miss").asInt(), at);
            assertEquals(fromStore, json.get("gateway_store_hits").asInt(), at);
            assertEquals((fromStore + replica) / 2.0, json.get("hit_ratio").asDouble(), 1e-9, at);
            assertEquals(replica / 2.0, json.get("hit_ratio_without_gateway_store").asDouble(), 1e-9, at);
            landed += fromStore;
            if (landed > 0) {
                break;
            }
        }
        assertEquals(1, landed, "some gap between the gateway's store and its publish being found");
    }

    @Test
    void anUnknownGatewayPlacementIsAClearError() {
        ScenarioOptionException e = assertThrows(ScenarioOptionException.class, () -> new TraceReplayScenario().run(
                new ScenarioContext(1, dir, new ScenarioOptions(Map.of("trace", handTraceUnchecked(), "gateways", "moon")),
                        Progress.silent())));
        assertTrue(e.getMessage().contains("each-lab"), e.getMessage());
    }

    private String handTraceUnchecked() {
        try {
            return handTrace().toString();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void aMissingTraceIsAClearError() {
        ScenarioOptionException e = assertThrows(ScenarioOptionException.class, () -> new TraceReplayScenario().run(
                new ScenarioContext(1, dir, new ScenarioOptions(Map.of("trace", dir.resolve("nope.tsv").toString())),
                        Progress.silent())));
        assertTrue(e.getMessage().contains("nope.tsv"), e.getMessage());
    }

    @Test
    void aPolyMixStreamReplaysWithoutATraceFile() throws Exception {
        Path out = Files.createDirectories(dir.resolve("polymix"));
        // At the scenario's own rate (half an uplink): at 100 req/s the uplinks were offered 2-5 times their capacity,
        // a regime where the hit ratio says more about drop-tail queues than about the replay.
        new TraceReplayScenario().run(new ScenarioContext(1, out, new ScenarioOptions(Map.of("workload", "polymix",
                "requests", "1500", "users", "20", "nodes", "300", "settle-s", "20")), Progress.silent()));
        JsonNode json = new ObjectMapper().readTree(Files.readAllBytes(out.resolve("result.json")));
        assertEquals("polymix", json.get("workload").asText());
        assertEquals(1500, json.get("requests").asInt());
        assertEquals(2, json.get("labs").asInt());
        assertTrue(json.get("shared_proxy_hit_ratio").asDouble() > 0.2, json.toString());
        assertTrue(json.get("hit_ratio").asDouble() > 0.1, json.toString());
        assertTrue(json.get("per_client_hit_ratio").asDouble() < json.get("shared_proxy_hit_ratio").asDouble());
        ScenarioOptionException e = assertThrows(ScenarioOptionException.class, () -> new TraceReplayScenario().run(
                new ScenarioContext(1, dir, new ScenarioOptions(Map.of("workload", "specweb")), Progress.silent())));
        assertTrue(e.getMessage().contains("trace or polymix"), e.getMessage());
    }
}
