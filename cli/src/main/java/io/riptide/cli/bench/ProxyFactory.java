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

    /** The browser proxy over a small loopback overlay with a gateway; {@code makeHits} gets URLs inserted through it. */
    public static HitProxyUnderTest overlayHits() {
        return new HitProxyUnderTest() {
            private LoopbackRiptide riptide;

            @Override
            public InetSocketAddress start() throws Exception {
                riptide = new LoopbackRiptide(4, 0);
                return riptide.proxyAddress();
            }

            @Override
            public void makeHits(List<URI> urls) throws Exception {
                for (URI url : urls) {
                    if (!riptide.makeHit(url, Duration.ofSeconds(15))) {
                        throw new IllegalStateException(url + " was not served from the overlay within 15 s");
                    }
                }
            }

            @Override
            public void close() {
                if (riptide != null) {
                    riptide.close();
                }
            }

            @Override
            public String name() {
                return "riptide proxy (overlay hits)";
            }
        };
    }
}
