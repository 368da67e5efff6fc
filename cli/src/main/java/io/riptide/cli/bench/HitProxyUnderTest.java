package io.riptide.cli.bench;

import java.net.URI;
import java.util.List;

/** A proxy whose overlay can be preloaded, so that the benchmark's requests are served as cache hits. */
public interface HitProxyUnderTest extends ProxyUnderTest {
    /** After {@link #start()}: inserts every URL into the overlay and returns once each would be served as a hit. */
    void makeHits(List<URI> urls) throws Exception;
}
