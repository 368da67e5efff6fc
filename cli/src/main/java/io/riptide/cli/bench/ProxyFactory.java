package io.riptide.cli.bench;

import io.riptide.cli.demo.LoopbackRiptide;
import io.riptide.proxy.ProxyConfig;
import io.riptide.proxy.ProxyServer;
import io.riptide.proxy.CacheLookup;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/** Where the benchmarks get Riptide's browser proxy: in pass-through mode, or over a loopback overlay serving hits. */
public final class ProxyFactory {
    private static final Duration HIT_PATIENCE = Duration.ofSeconds(15);
    private static final String MEMORY = "detail=memory";

    private ProxyFactory() {
    }

    /** The browser proxy in pass-through mode: every request to its origin, no cache lookup. */
    public static ProxyUnderTest passThrough() {
        return new ProxyUnderTest() {
            private ProxyServer server;

            @Override
            public InetSocketAddress start() {
                server = ProxyServer.start(ProxyConfig.builder().host("127.0.0.1").port(0).passThrough(true).build(), CacheLookup.NONE);
                return server.address();
            }

            @Override
            public void close() {
                if (server != null) {
                    server.close();
                }
            }

            @Override
            public String name() {
                return "riptide proxy (pass-through)";
            }
        };
    }

    /**
     * The browser proxy in a JVM of its own ({@link ProxyProcess}) over a small loopback overlay with a gateway, which
     * stay in this JVM; {@code makeHits} gets URLs inserted through the overlay and checks that the proxy then serves
     * each as a hit: an overlay hit first and, with its memory tier on, a memory hit next (with it off, never one).
     */
    public static HitProxyUnderTest overlayHits(HitProxySetup setup) {
        return new HitProxyUnderTest() {
            private LoopbackRiptide riptide;
            private ProxyProcess proxy;

            @Override
            public InetSocketAddress start() throws Exception {
                riptide = new LoopbackRiptide(4, 1, 0, LoopbackRiptide.OVERLAY_ONLY);
                proxy = ProxyProcess.start(setup.gc(), setup.gcLog(), List.of("--host", "127.0.0.1", "--port", "0",
                        "--seed", riptide.storageNodes().get(0).address().toString(),
                        "--provider", riptide.provider().publicKey().toString(),
                        "--memory-mb", Integer.toString(setup.memoryMb()),
                        // Verified copies only: the hits measured are the overlay's (or memory copies of them), not a
                        // private copy of the proxy's own fetch.
                        "--no-keep-own-fetches"), setup.output());
                return proxy.address();
            }

            @Override
            public void makeHits(List<URI> urls) throws Exception {
                for (URI url : urls) {
                    // Through the overlay's own (in-process) proxy: the first request's miss makes the gateway insert it.
                    if (!riptide.makeHit(url, HIT_PATIENCE)) {
                        throw new IllegalStateException(url + " was not served from the overlay within " + HIT_PATIENCE.toSeconds() + " s");
                    }
                }
                try (HttpConnection c = HttpConnection.open(proxy.address(), HIT_PATIENCE)) {
                    for (URI url : urls) {
                        String first = awaitHit(c, url);
                        if (first.contains(MEMORY)) {
                            throw new IllegalStateException("the proxy's first answer for " + url + " came from its memory tier ("
                                    + first + "), not from the overlay: was it fetched through it before?");
                        }
                        String second = cacheStatus(c, url);
                        if (setup.memoryTier() && !second.contains(MEMORY)) {
                            throw new IllegalStateException("with --memory-mb " + setup.memoryMb() + " the proxy answered the second request for "
                                    + url + " with Cache-Status '" + second + "', not a memory hit (" + MEMORY + ")");
                        }
                        if (!setup.memoryTier() && (!second.contains("; hit") || second.contains(MEMORY))) {
                            throw new IllegalStateException("with --memory-mb 0 the proxy answered the second request for "
                                    + url + " with Cache-Status '" + second + "', not an overlay hit");
                        }
                    }
                }
            }

            private String awaitHit(HttpConnection c, URI url) throws Exception {
                long end = System.nanoTime() + HIT_PATIENCE.toNanos();
                String status = "";
                while (System.nanoTime() < end) {
                    status = cacheStatus(c, url);
                    if (status.contains("; hit")) {
                        return status;
                    }
                    Thread.sleep(100);
                }
                throw new IllegalStateException("the proxy in its own JVM did not serve " + url + " as a hit within "
                        + HIT_PATIENCE.toSeconds() + " s (last Cache-Status '" + status + "'); its output: " + proxy.outputTail());
            }

            private String cacheStatus(HttpConnection c, URI url) throws Exception {
                HttpResponse r = c.get(url.toString(), url.getAuthority());
                if (r.status() != 200) {
                    throw new IllegalStateException("the proxy answered GET " + url + " with " + HttpWire.firstLine(r.head()));
                }
                return HttpWire.header(r.head(), "Cache-Status").orElse("");
            }

            @Override
            public void close() {
                if (proxy != null) {
                    proxy.close();
                }
                if (riptide != null) {
                    riptide.close();
                }
            }

            @Override
            public String name() {
                return setup.memoryTier() ? "riptide proxy (memory hits)" : "riptide proxy (overlay hits)";
            }
        };
    }
}
