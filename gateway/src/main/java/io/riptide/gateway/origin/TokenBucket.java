package io.riptide.gateway.origin;

/** A token bucket: {@code rate} tokens a second up to {@code burst}; not thread-safe. */
final class TokenBucket {
    private final double perMilli;
    private final int burst;
    private double tokens;
    private long lastMillis;

    TokenBucket(double perSecond, int burst, long nowMillis) {
        this.perMilli = perSecond / 1000.0;
        this.burst = burst;
        this.tokens = burst;
        this.lastMillis = nowMillis;
    }

    /** Takes a token if one is there at {@code nowMillis}. */
    boolean tryTake(long nowMillis) {
        refill(nowMillis);
        if (tokens >= 1) {
            tokens -= 1;
            return true;
        }
        return false;
    }

    /** Whether the bucket is full at {@code nowMillis}, so forgetting it changes nothing. */
    boolean full(long nowMillis) {
        refill(nowMillis);
        return tokens >= burst;
    }

    private void refill(long nowMillis) {
        // A clock that steps back must not mint tokens or leave the bucket stuck.
        long elapsed = Math.max(0, nowMillis - lastMillis);
        tokens = Math.min(burst, tokens + elapsed * perMilli);
        lastMillis = Math.max(lastMillis, nowMillis);
    }
}
