package io.riptide.simulator.agents;

import io.riptide.core.runtime.NodeHandle;

/**
 * How one client request was answered.
 *
 * @param source       from a replica in the overlay, or from the origin after a miss, a stale copy or without caching
 * @param replica      the replica that answered the read (also when its copy was stale), or null
 * @param hops         overlay hops of the read
 * @param latencyNanos from the request to the response, in virtual time
 * @param bodyBytes    size of the body the client got (the served version's), or -1 if unknown
 */
public record ClientResult(Source source, NodeHandle replica, int hops, long latencyNanos, long bodyBytes) {
    /** Where the response came from. */
    public enum Source {
        REPLICA, ORIGIN_MISS, ORIGIN_STALE,
        /** From the origin by a proxy that does not cache (no overlay read at all). */
        ORIGIN_UNCACHED,
        /** From the origin because the request may not use a shared cache (the proxy's bypass rules: a script's URL, ...). */
        ORIGIN_BYPASS,
        /** From the proxy's memory tier: a verified copy it read through the overlay before. */
        PROXY_MEMORY,
        /** From the proxy's private tier: a response it fetched from the origin itself before. */
        PROXY_PRIVATE,
        /** From the origin by the gateway, for this request: a miss the gateway fetched, inserted and the proxy then read. */
        GATEWAY_MISS
    }

    /** Whether a replica served it. */
    public boolean fromReplica() {
        return source == Source.REPLICA;
    }

    /** Whether a cache served it: a replica, or the proxy's own memory (verified or private). */
    public boolean fromCache() {
        return source == Source.REPLICA || source == Source.PROXY_MEMORY || source == Source.PROXY_PRIVATE;
    }
}
