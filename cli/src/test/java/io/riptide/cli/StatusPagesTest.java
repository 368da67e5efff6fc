package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.riptide.cachemanager.admin.CacheManagerReport;
import io.riptide.cli.demo.LoopbackRiptide;
import io.riptide.cli.demo.SampleSite;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.admin.AdminServer;
import io.riptide.dolr.admin.StatusReports;
import io.riptide.dolr.admin.StatusSource;
import io.riptide.dolr.server.NodeReport;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.gateway.admin.GatewayReport;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The status pages, metrics and {@code riptide status} of a real small Riptide on loopback: storage
 * nodes, a gateway, a cache manager and the browser proxy, each page served by its admin server
 * (the proxy's on its own port), loaded in headless Chromium with screenshots in the test reports.
 */
class StatusPagesTest {
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final Path SCREENSHOTS = Path.of("target", "surefire-reports", "status-pages");

    private static SampleSite site;
    private static LoopbackRiptide riptide;
    private static AdminServer nodeAdmin;
    private static AdminServer gatewayAdmin;
    private static AdminServer managerAdmin;
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void start() throws Exception {
        site = new SampleSite(0);
        riptide = new LoopbackRiptide(3, 1, 0, LoopbackRiptide.OVERLAY_ONLY);
        OverlayServer node = riptide.storageNodes().get(0);
        nodeAdmin = admin("Riptide node", NodeReport.of(node));
        gatewayAdmin = admin("Riptide gateway", NodeReport.of(riptide.gateway()),
                new GatewayReport(riptide.gateway(), riptide::gatewayAgent, null));
        managerAdmin = admin("Riptide cache manager", NodeReport.of(riptide.cacheManager()),
                new CacheManagerReport(riptide.cacheManager(), riptide::cacheManagerAgent));
        // A miss the gateway inserts, then a hit: every agent's counters have something to show.
        assertTrue(riptide.makeHit(URI.create(site.url("/style.css")), WAIT), "the sample page became an overlay hit");
    }

    private static AdminServer admin(String title, StatusSource... sources) {
        return AdminServer.start("127.0.0.1", 0, new StatusReports(title, List.of(sources), Duration.ofSeconds(5)));
    }

    @AfterAll
    static void stop() {
        for (AdminServer a : new AdminServer[] {nodeAdmin, gatewayAdmin, managerAdmin}) {
            if (a != null) {
                a.close();
            }
        }
        if (riptide != null) {
            riptide.close();
        }
        if (site != null) {
            site.close();
        }
    }

    private static String url(AdminServer a, String path) {
        return "http://" + a.hostPort() + path;
    }

    private static String proxyUrl(String path) {
        return "http://127.0.0.1:" + riptide.proxyAddress().getPort() + path;
    }

    private static HttpResponse<String> get(String url) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(WAIT).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    // ---- the pages in a browser --------------------------------------------------------------------

    @Test
    void theNodePageShowsItsIdRoutingTableRowsLeafSetAndCountersInABrowser() throws Exception {
        OverlayServer node = riptide.storageNodes().get(0);
        List<NodeHandle> row0 = node.call(n -> n.routingTable().row(0)).get(5, TimeUnit.SECONDS);
        List<NodeHandle> leaves = node.call(n -> n.leafSet().members()).get(5, TimeUnit.SECONDS);
        assertFalse(row0.isEmpty(), "a node of a six-node overlay has routing-table entries in row 0");

        String dom = browse("node", url(nodeAdmin, "/"));
        assertTrue(dom.contains(node.self().id().toHex()), "the node ID is shown");
        assertTrue(dom.contains("<meta http-equiv=\"refresh\" content=\"5\">"), "the page refreshes itself");
        String routing = section(dom, "Routing table");
        assertTrue(routing.contains("<td>0</td>"), "routing-table row 0 is listed: " + routing);
        for (NodeHandle h : row0) {
            assertTrue(routing.contains(h.id().shortHex()), "row 0 shows its entry " + h + ": " + routing);
        }
        String leafSet = section(dom, "Leaf set");
        for (NodeHandle h : leaves) {
            assertTrue(leafSet.contains(h.id().toHex()), "the leaf set shows " + h);
        }
        assertTrue(section(dom, "Stages").contains("<td>"), "stage queues are listed");
        assertTrue(counter(dom, "riptide_transport_messages_received_total") > 0, "the transport counters are shown and moved");
    }

    @Test
    void theGatewayPageShowsItsInsertsInABrowser() throws Exception {
        String dom = browse("gateway", url(gatewayAdmin, "/status"));
        assertTrue(dom.contains(riptide.gateway().self().id().toHex()), "the gateway's node ID is shown");
        assertTrue(section(dom, "Gateway inserts").contains("inserted"), "the insert outcomes are listed");
        assertTrue(counter(dom, "riptide_gateway_inserts_total{outcome=\"inserted\"}") >= 1, "the page's insert is counted");
        assertTrue(dom.contains("Routing table"), "a gateway's page is also its node's page");
    }

    @Test
    void theCacheManagerPageShowsHintsAndInsertRequestsInABrowser() throws Exception {
        String dom = browse("cache-manager", url(managerAdmin, "/"));
        assertTrue(dom.contains(riptide.cacheManager().self().id().toHex()), "the cache manager's node ID is shown");
        String table = section(dom, "Cache manager");
        assertTrue(table.contains("hints received") && table.contains("replicas placed for slow hits")
                && table.contains("hot replicas now"), table);
        // The proxy's first miss was a hint to the nearest cache manager, which asked the gateway to insert.
        assertTrue(counter(dom, "riptide_cache_manager_hints_total") >= 1, "the proxy's hint is counted");
        assertTrue(counter(dom, "riptide_cache_manager_insert_requests_total") >= 1, "the insert request is counted");
    }

    @Test
    void theProxyPageShowsHitsMissesAndLatencyInABrowser() throws Exception {
        String dom = browse("proxy", proxyUrl("/status"));
        String requests = section(dom, "Requests");
        assertTrue(requests.contains("hits") && requests.contains("misses") && requests.contains("bypasses"), requests);
        assertTrue(counter(dom, "riptide_proxy_requests_total{result=\"hit\"}") >= 1, "the overlay hit is counted");
        assertTrue(counter(dom, "riptide_proxy_requests_total{result=\"miss\"}") >= 1, "the first miss is counted");
        assertTrue(section(dom, "Latency").contains("p99"), "latency percentiles are shown");
    }

    /** Loads {@code url} in headless Chromium, saves its screenshot with the test reports, and returns its DOM. */
    private static String browse(String name, String url) throws Exception {
        HeadlessChromium chromium = HeadlessChromium.direct(Duration.ofSeconds(30));
        Path png = SCREENSHOTS.resolve(name + ".png");
        Files.deleteIfExists(png);
        chromium.screenshot(url, png);
        assertTrue(Files.size(png) > 1000, "a real screenshot of " + url + " at " + png.toAbsolutePath());
        return chromium.dumpDom(url);
    }

    /** The HTML of the table titled {@code title}. */
    private static String section(String dom, String title) {
        int start = dom.indexOf("data-title=\"" + title + "\"");
        assertTrue(start >= 0, "the page has a " + title + " table");
        return dom.substring(start, dom.indexOf("</table>", start));
    }

    /** The value the page's metrics table shows for {@code sample}. */
    private static double counter(String dom, String sample) {
        Matcher m = Pattern.compile(Pattern.quote("<code>" + sample + "</code></td><td class=\"n\">") + "([0-9.eE+-]+)<").matcher(dom);
        assertTrue(m.find(), "the page shows " + sample);
        return Double.parseDouble(m.group(1));
    }

    // ---- /metrics ----------------------------------------------------------------------------------

    @Test
    void everyMetricsPageIsStrictPrometheusText() throws Exception {
        for (String url : List.of(url(nodeAdmin, "/metrics"), url(gatewayAdmin, "/metrics"), url(managerAdmin, "/metrics"),
                proxyUrl("/metrics"))) {
            HttpResponse<String> r = get(url);
            assertEquals(200, r.statusCode(), url);
            assertEquals("text/plain; version=0.0.4; charset=utf-8", r.headers().firstValue("Content-Type").orElseThrow(), url);
            Map<String, Double> series = PrometheusTextParser.parse(r.body());
            assertFalse(series.isEmpty(), url);
        }
        Map<String, Double> gateway = PrometheusTextParser.parse(get(url(gatewayAdmin, "/metrics")).body());
        assertTrue(gateway.containsKey("riptide_node_uptime_seconds") && gateway.containsKey("riptide_gateway_inserts_total{outcome=\"inserted\"}"),
                "a gateway's metrics are its node's and its own: " + gateway.keySet());
    }

    @Test
    void theNodesMessageCountersMoveWithOverlayTraffic() throws Exception {
        OverlayServer node = riptide.storageNodes().get(0);
        double before = metric(url(nodeAdmin, "/metrics"), "riptide_transport_messages_sent_total");
        // A lookup of a key another node is the root of must leave this node: it sends at least one message.
        node.locate(riptide.storageNodes().get(1).self().id()).get(10, TimeUnit.SECONDS);
        double after = metric(url(nodeAdmin, "/metrics"), "riptide_transport_messages_sent_total");
        assertTrue(after > before, "messages sent moved from " + before + " to " + after);
    }

    @Test
    void theProxysMissCounterMovesWithAProxyRequest() throws Exception {
        double before = metric(proxyUrl("/metrics"), "riptide_proxy_requests_total{result=\"miss\"}");
        double countBefore = metric(proxyUrl("/metrics"), "riptide_proxy_latency_seconds_count");
        assertEquals(200, riptide.fetch(URI.create(site.url("/app.js?fresh=" + System.nanoTime()))).statusCode());
        assertEquals(before + 1, metric(proxyUrl("/metrics"), "riptide_proxy_requests_total{result=\"miss\"}"));
        assertEquals(countBefore + 1, metric(proxyUrl("/metrics"), "riptide_proxy_latency_seconds_count"));
    }

    @Test
    void eachStagesQueueWaitAndShedCountsAreOnTheNodesAndTheProxysMetrics() throws Exception {
        Map<String, List<String>> stagesOf = Map.of(url(nodeAdmin, "/metrics"), List.of("crypto"),
                proxyUrl("/metrics"), List.of("lookup", "verify", "origin"));
        for (Map.Entry<String, List<String>> e : stagesOf.entrySet()) {
            Map<String, Double> all = PrometheusTextParser.parse(get(e.getKey()).body());
            for (String stage : e.getValue()) {
                for (String name : List.of("riptide_stage_queue_length", "riptide_stage_wait_seconds_sum", "riptide_stage_wait_seconds_count",
                        "riptide_stage_refused_total", "riptide_stage_shed_total", "riptide_stage_accepted_total")) {
                    String series = name + "{stage=\"" + stage + "\"}";
                    assertTrue(all.containsKey(series), series + " on " + e.getKey() + ": " + all.keySet());
                }
            }
        }
        // The proxy's request above went to the origin: its wait there was counted.
        assertEquals(200, riptide.fetch(URI.create(site.url("/app.js?stage=" + System.nanoTime()))).statusCode());
        assertTrue(metric(proxyUrl("/metrics"), "riptide_stage_wait_seconds_count{stage=\"origin\"}") >= 1);
    }

    private static double metric(String url, String series) throws Exception {
        Map<String, Double> all = PrometheusTextParser.parse(get(url).body());
        assertTrue(all.containsKey(series), series + " in " + all.keySet());
        return all.get(series);
    }

    // ---- /status.json and riptide status -----------------------------------------------------------

    @Test
    void statusJsonCarriesTheSameFiguresAsThePage() throws Exception {
        HttpResponse<String> r = get(url(nodeAdmin, "/status.json"));
        assertEquals(200, r.statusCode());
        JsonNode json = new ObjectMapper().readTree(r.body());
        assertEquals("Riptide node", json.path("title").asText());
        assertEquals(riptide.storageNodes().get(0).self().id().toHex(), json.path("summary").path("node ID").asText());
        assertTrue(json.path("tables").size() >= 5, r.body());
        assertTrue(json.path("metrics").findValuesAsText("name").contains("riptide_transport_messages_sent_total"));
    }

    @Test
    void riptideStatusPrintsTheNodeIdOfARunningNode() {
        CliRun cli = new CliRun();
        assertEquals(0, cli.run("status", "--admin", nodeAdmin.hostPort()), cli.err());
        String out = cli.out();
        assertTrue(out.startsWith("Riptide node\n"), out);
        assertTrue(out.contains("node ID        " + riptide.storageNodes().get(0).self().id().toHex()), out);
        assertTrue(out.contains("Routing table"), out);

        CliRun byUrl = new CliRun();
        assertEquals(0, byUrl.run("status", "--admin", "http://" + nodeAdmin.hostPort() + "/"), byUrl.err());
        assertEquals(out.lines().limit(2).toList(), byUrl.out().lines().limit(2).toList(),
                "the status page's URL, as the node prints it, works as --admin");

        CliRun json = new CliRun();
        assertEquals(0, json.run("status", "--admin", nodeAdmin.hostPort(), "--json"), json.err());
        assertTrue(json.out().startsWith("{\"title\":\"Riptide node\""), json.out());
    }

    @Test
    void riptideStatusReadsTheProxyOnItsOwnPort() {
        CliRun cli = new CliRun();
        assertEquals(0, cli.run("status", "--admin", "127.0.0.1:" + riptide.proxyAddress().getPort()), cli.err());
        assertTrue(cli.out().startsWith("Riptide browser proxy\n") && cli.out().contains("hits "), cli.out());
    }

    @Test
    void riptideStatusAgainstAClosedPortExitsOneSayingWhatToCheck() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closed = s.getLocalPort();
        }
        CliRun cli = new CliRun();
        assertEquals(1, cli.run("status", "--admin", "127.0.0.1:" + closed));
        assertEquals("riptide status: nothing answers at http://127.0.0.1:" + closed + "/status.json (connection refused)."
                + " Check that the node runs and was started with --admin-port " + closed + " (a browser proxy answers on its"
                + " own --port), or give another address with --admin HOST:PORT.\n", cli.err());
        assertEquals("", cli.out());
    }
}
