package io.riptide.gateway.origin;

import java.time.Clock;
import java.util.HashMap;
import java.util.Map;

/**
 * Limits how fast the fetcher asks any one host, so the gateway can't be used to hammer an origin.
 * Memory is bounded: past {@code maxTracked} hosts, full buckets (which remember nothing) are dropped.
 */
final class HostRateLimiter {
    private final double perSecond;
    private final int burst;
    private final int maxTracked;
    private final Clock clock;
    private final Map<String, TokenBucket> buckets = new HashMap<>();

    HostRateLimiter(double perSecond, int burst, int maxTracked, Clock clock) {
        this.perSecond = perSecond;
        this.burst = burst;
        this.maxTracked = maxTracked;
        this.clock = clock;
    }

    /** Takes one fetch from {@code host}'s allowance; false when it is used up. */
    synchronized boolean tryAcquire(String host) {
        long now = clock.millis();
        TokenBucket bucket = buckets.get(host);
        if (bucket == null) {
            if (buckets.size() >= maxTracked) {
                buckets.values().removeIf(b -> b.full(now));
            }
            // Every tracked host is busy: refusing a new one keeps memory bounded under a flood of names.
            if (buckets.size() >= maxTracked) {
                return false;
            }
            bucket = new TokenBucket(perSecond, burst, now);
            buckets.put(host, bucket);
        }
        return bucket.tryTake(now);
    }
}
