package io.riptide.proxy.upstream;

import io.riptide.core.stage.WaitLimit;
import java.time.Duration;

/**
 * How requests for a busy origin are admitted to its connections ({@link OriginQueue}): how many may wait on one event
 * loop, and the {@link WaitLimit} that sheds those that waited too long.
 *
 * @param maxWaiting   requests that may wait for one origin's connections on one event loop; one more is refused at once.
 *                     A memory bound only: under overload the wait limit sheds long before a queue this long forms
 * @param waitTarget   the longest a request may wait once the queue has stood for {@code waitInterval}, or one of the
 *                     origin's service times if that is longer ({@link WaitLimit})
 * @param waitInterval the longest a request may wait in a burst, and how long a queue may stand before it is standing,
 *                     or ten of the origin's service times if that is longer
 */
public record OriginAdmission(int maxWaiting, Duration waitTarget, Duration waitInterval) {
    /**
     * The defaults: CoDel's 5 ms target and 100 ms interval (RFC 8289, the values Facebook runs its request queues with,
     * "Fail at Scale", 2015), scaled to the origin's service time, so a page's burst of requests to one origin waits up
     * to 100 ms (or ten exchanges' time) for its connections, and a queue that stands longer than that is held to 5 ms
     * (or one exchange's time) of wait by shedding; 1,024 waiting per origin per loop, the
     * bound the pools had before, as a last resort for memory.
     */
    public static final OriginAdmission DEFAULT = new OriginAdmission(1024, WaitLimit.DEFAULT_TARGET, WaitLimit.DEFAULT_INTERVAL);

    /**
     * Seconds a shed client is told to wait ({@code Retry-After}): a standing queue drains within its interval, so a
     * second is long enough for a retry to find room and short enough that a browser's user barely notices.
     */
    public static final int RETRY_AFTER_SECONDS = 1;

    public OriginAdmission {
        if (maxWaiting < 1) {
            throw new IllegalArgumentException("at least one request must be able to wait for an origin, not " + maxWaiting);
        }
        // Checked as the rule would check them, so a bad pair fails here, at configuration.
        new WaitLimit(waitTarget, waitInterval);
    }

    /**
     * A new wait rule for one queue. However slowly the origin serves, nobody waits for one of its connections longer
     * than {@code connectTimeout}, what the proxy would wait for a new connection (HAProxy bounds its queue the same
     * way: {@code timeout queue} defaults to {@code timeout connect}).
     */
    WaitLimit limit(Duration connectTimeout) {
        return new WaitLimit(waitTarget, waitInterval, connectTimeout.compareTo(waitInterval) < 0 ? waitInterval : connectTimeout);
    }
}
