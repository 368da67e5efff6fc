package io.riptide.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pieces of {@code riptide bench hit-throughput} around the systems: wrk's script and its result line, nginx's
 * config and start, Squid's memory-cache config and the GC log's pauses. The tests that run wrk or nginx are
 * skipped only where that binary is missing, and load for a second at most.
 */
@Timeout(60)
class HitThroughputToolsTest {
    @TempDir
    Path dir;

    @Test
    void wrksResultLineIsReadAmongItsHumanText() {
        String output = String.join("\n",
                "Running 10s test @ http://127.0.0.1:3128/",
                "  2 threads and 64 connections",
                "  Thread Stats   Avg      Stdev     Max   +/- Stdev",
                "    Latency     1.23ms  456.00us  20.00ms   90.00%",
                "  250000 requests in 10.00s, 300.00MB read",
                "riptide-wrk requests=250000 duration_us=10000123 bytes=314572800 errors_connect=0 errors_read=1 errors_write=0 "
                        + "errors_status=2 errors_timeout=3 p50_us=1100 p99_us=4200 p999_us=9100 mean_us=1230.5 max_us=20000",
                "Requests/sec:  24999.69",
                "");
        Wrk.Result r = Wrk.parse(output);
        assertEquals(250000, r.requests());
        assertEquals(10.000123, r.seconds(), 1e-9);
        assertEquals(250000 / 10.000123, r.rps(), 1e-6);
        assertEquals(6, r.errors());
        assertEquals(1.1, r.p50Ms(), 1e-9);
        assertEquals(4.2, r.p99Ms(), 1e-9);
        assertEquals(9.1, r.p999Ms(), 1e-9);
        assertEquals(1.2305, r.meanMs(), 1e-9);
        assertEquals(314572800.0 / 250000, r.bytesPerRequest(), 1e-9);
    }

    @Test
    void wrkOutputWithoutTheResultLineIsAClearError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Wrk.parse("unable to connect to 127.0.0.1:1 Connection refused\n"));
        assertTrue(e.getMessage().contains("riptide-wrk") && e.getMessage().contains("Connection refused"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Wrk.parse("riptide-wrk requests=1 duration_us=x\n"));
    }

    @Test
    void theScriptSendsTheAbsoluteTargetAProxyReceivesWithTheOriginsHost() {
        String script = Wrk.script("http://127.0.0.1:8080/obj-1024", "127.0.0.1:8080");
        assertTrue(script.contains("wrk.path = \"http://127.0.0.1:8080/obj-1024\"\n"), script);
        assertTrue(script.contains("wrk.headers[\"Host\"] = \"127.0.0.1:8080\"\n"), script);
        assertTrue(script.contains("done = function(summary, latency, requests)"), script);
        assertThrows(IllegalArgumentException.class, () -> Wrk.script("/x\" os.exit() \"", "h"));
    }

    @Test
    void wrkReallySendsTheAbsoluteRequestLine() throws Exception {
        Path wrk = Wrk.binary().orElse(null);
        Assumptions.assumeTrue(wrk != null, "wrk is not installed (apt-get install wrk)");
        Set<String> targets = ConcurrentHashMap.newKeySet();
        Set<String> hosts = ConcurrentHashMap.newKeySet();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        byte[] body = new byte[100];
        server.createContext("/", exchange -> {
            targets.add(exchange.getRequestURI().toString());
            hosts.add(exchange.getRequestHeaders().getFirst("Host"));
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            Wrk.Result r = new Wrk(wrk, 1, 2).run(new InetSocketAddress("127.0.0.1", server.getAddress().getPort()),
                    "http://127.0.0.1:9999/obj-100", "127.0.0.1:9999", Duration.ofSeconds(1), dir);
            assertTrue(r.requests() > 0, r.toString());
            assertEquals(0, r.errors(), r.toString());
            assertTrue(r.bytesPerRequest() >= 100, r.toString());
            assertEquals(Set.of("http://127.0.0.1:9999/obj-100"), targets);
            assertEquals(Set.of("127.0.0.1:9999"), hosts);
            try (var left = Files.list(dir)) {
                assertEquals(0, left.count(), "the script and output files are removed");
            }
        } finally {
            server.stop(0);
        }
    }

    @Test
    void nginxsConfigKeepsEveryFileInItsPrefixAndListensOnLoopback() {
        String conf = NginxServer.config(Path.of("/tmp/n"), 4321);
        for (String line : List.of("daemon off;", "master_process on;", "worker_processes auto;", "pid /tmp/n/nginx.pid;",
                "error_log /tmp/n/error.log warn;", "    access_log off;", "        listen 127.0.0.1:4321;", "        root /tmp/n/html;",
                "    client_body_temp_path /tmp/n/tmp/client_body;", "    proxy_temp_path /tmp/n/tmp/proxy;",
                "    fastcgi_temp_path /tmp/n/tmp/fastcgi;", "    uwsgi_temp_path /tmp/n/tmp/uwsgi;", "    scgi_temp_path /tmp/n/tmp/scgi;")) {
            assertTrue(conf.contains(line + "\n"), line + " in\n" + conf);
        }
        assertFalse(conf.contains("/var/"), conf);
    }

    @Test
    void nginxServesTheSameBytesAndStopsWithItsWorkers() throws Exception {
        NginxServer nginx = NginxServer.find().orElse(null);
        Assumptions.assumeTrue(nginx != null, "nginx is not installed (apt-get install nginx)");
        InetSocketAddress address;
        long pid;
        List<ProcessHandle> workers;
        try (LoopbackOrigin origin = LoopbackOrigin.start(List.of(1024, 10240), 1); nginx) {
            address = nginx.start(Map.of("obj-1024", origin.body(1024), "obj-10240", origin.body(10240)));
            pid = nginx.pid();
            workers = ProcessHandle.of(pid).orElseThrow().descendants().toList();
            assertFalse(workers.isEmpty(), "a master with a worker");
            try (HttpConnection c = HttpConnection.open(address, Duration.ofSeconds(10))) {
                for (int size : List.of(1024, 10240)) {
                    HttpResponse r = c.get(LoopbackOrigin.path(size), "127.0.0.1");
                    assertEquals(200, r.status(), r.head());
                    assertTrue(java.util.Arrays.equals(origin.body(size), r.body()));
                }
                assertEquals(404, c.get("/nginx.conf", "127.0.0.1").status(), "only the documents are served");
            }
        }
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false), "master stopped");
        for (ProcessHandle w : workers) {
            assertFalse(w.isAlive(), "worker " + w.pid() + " stopped");
        }
        assertFalse(ChildProcesses.accepts(address));
    }

    @Test
    void squidsMemoryCacheConfigCachesInMemoryOnly() {
        String conf = SquidProxy.config(Path.of("/tmp/s"), 3999, 256);
        assertTrue(conf.contains("cache_mem 256 MB\n"), conf);
        assertTrue(conf.contains("maximum_object_size_in_memory 1 MB\n"), conf);
        assertFalse(conf.contains("cache deny all"), conf);
        assertFalse(conf.contains("cache_dir"), conf);
        assertEquals(SquidProxy.config(Path.of("/tmp/s"), 3999), SquidProxy.config(Path.of("/tmp/s"), 3999, 0));
    }

    @Test
    void gcPausesAreEveryCollectorsPauseLinesWithADuration() {
        GcPauses p = GcPauses.parse(List.of(
                "[0.068s][info][gc,start    ] GC(0) Pause Young (Normal) (G1 Evacuation Pause)",
                "[0.075s][info][gc          ] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 12M->12M(256M) 6.320ms",
                "[0.080s][info][gc,phases   ] GC(0)   Evacuate Collection Set: 5.1ms",
                "[0.090s][info][gc          ] GC(1) Pause Remark 20M->20M(256M) 1.5ms",
                "[0.095s][info][gc          ] GC(1) Pause Cleanup 20M->20M(256M) 0.040ms",
                "[0.408s][info][gc,phases   ] GC(2) Pause Mark Start 0.008ms",
                "[0.409s][info][gc,phases   ] GC(3) Y: Pause Mark Start 0.010ms",
                "[0.384s][info][gc             ] GC(4) Pause Full (Ergonomics) 190M->189M(245M) 209.726ms",
                "[0.145s][info][gc          ] GC(5) Pause Init Mark (unload classes) 0.018ms",
                "[9.000s][info][gc,stats    ] Pause Final Mark (G)                 48 us",
                "[9.000s][info][gc,heap     ] GC(6) Eden regions: 10->0(12)"));
        assertEquals(7, p.count());
        assertEquals(209.726, p.maxMs(), 1e-9);
        assertEquals(209.726, p.percentileMs(99.9), 1e-9, "with fewer than 1000 pauses the 99.9th is the longest");
        assertEquals(0.04, p.percentileMs(50), 1e-9, "nearest rank: the 4th of 7");
        assertEquals(6.32 + 1.5 + 0.04 + 0.008 + 0.01 + 209.726 + 0.018, p.totalMs(), 1e-9);
        assertTrue(Double.isNaN(GcPauses.parse(List.of()).percentileMs(99.9)));
    }

    @Test
    void gcPausesSinceAnOffsetAreOnlyTheWindows() throws Exception {
        Path log = dir.resolve("gc.log");
        Files.writeString(log, "[1.0s][info][gc] GC(0) Pause Young (Normal) (G1 Evacuation Pause) 1M->1M(8M) 50.000ms\n");
        long offset = GcPauses.length(log);
        Files.writeString(log, "[2.0s][info][gc] GC(1) Pause Young (Normal) (G1 Evacuation Pause) 1M->1M(8M) 2.000ms\n",
                java.nio.file.StandardOpenOption.APPEND);
        GcPauses window = GcPauses.since(log, offset);
        assertEquals(1, window.count());
        assertEquals(2.0, window.maxMs(), 1e-9);
        assertEquals(0, GcPauses.since(dir.resolve("none.log"), 0).count());
    }

    @Test
    void theProxysJvmGetsTheChosenCollectorAndAGcLogAndTheDefaultHeap() {
        List<String> g1 = ProxyProcess.jvmOptions("g1", Path.of("/tmp/out/proxy-gc.log"));
        assertEquals(List.of("-XX:+UseG1GC", "-Xlog:gc*:file=/tmp/out/proxy-gc.log"), g1);
        assertEquals("-XX:+UseZGC", ProxyProcess.jvmOptions("ZGC", Path.of("/tmp/gc.log")).get(0));
        assertEquals("-Xlog:gc*:file=\"/tmp/a:b/gc.log\"", ProxyProcess.jvmOptions("parallel", Path.of("/tmp/a:b/gc.log")).get(1));
        assertThrows(IllegalArgumentException.class, () -> ProxyProcess.jvmOptions("cms", Path.of("/tmp/gc.log")));
    }
}
