package io.riptide.proxy.front;

import io.riptide.proxy.ProxyConfig;
import io.riptide.proxy.ProxyStats;
import io.riptide.proxy.CacheLookup;
import io.riptide.proxy.cache.Cacheability;
import io.riptide.proxy.tls.LeafCertificates;
import io.riptide.proxy.upstream.UpstreamClient;

/**
 * What every browser connection shares: configuration, the cache and which requests may use it, the
 * counters, the origin pools, the lookup bound, when HTTPS is intercepted, the leaf certificates
 * (null otherwise), and the origin fetches in flight that a miss for the same URL may wait for.
 */
record FrontContext(ProxyConfig config, CacheLookup cache, Cacheability cacheability, ProxyStats stats, UpstreamClient upstream,
        Admission admission, PreparedHeads heads, LeafCertificates leaves, CollapsedFetches collapsed) {
    FrontContext(ProxyConfig config, CacheLookup cache, ProxyStats stats, UpstreamClient upstream, Admission admission,
            LeafCertificates leaves) {
        this(config, cache, new Cacheability(config.cookiesBypass(), config.queryBypass()), stats, upstream, admission,
                new PreparedHeads(config.via()), leaves, new CollapsedFetches());
    }
}
