package io.riptide.core.stage;

import java.time.Duration;

/**
 * How one SEDA stage is sized: its queue bound, the range its thread pool may move in, and how the
 * pool controller reacts.
 *
 * @param name stage name, unique in a registry; names the worker threads {@code stage-<name>-<n>}
 * @param queueCapacity most events waiting at once; beyond it {@code submit} refuses
 * @param minThreads workers kept even when idle (at least one, so queued work is always served)
 * @param maxThreads most workers the controller will start
 * @param growThreshold the controller adds a worker when the queue stays longer than this
 * @param controlPeriod how often the controller samples the queue length
 * @param idleTimeout a worker idle this long retires, down to {@code minThreads}
 */
public record StageConfig(
        String name,
        int queueCapacity,
        int minThreads,
        int maxThreads,
        int growThreshold,
        Duration controlPeriod,
        Duration idleTimeout) {

    /** Default sampling period: fast enough to react within a fraction of a second. */
    public static final Duration DEFAULT_CONTROL_PERIOD = Duration.ofMillis(100);
    /** Default idle time before a surplus worker retires. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(5);

    public StageConfig {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a stage needs a name");
        }
        if (queueCapacity < 1) {
            throw new IllegalArgumentException("queueCapacity must be at least 1, got " + queueCapacity);
        }
        if (minThreads < 1 || maxThreads < minThreads) {
            throw new IllegalArgumentException("need 1 <= minThreads <= maxThreads, got " + minThreads + ".." + maxThreads);
        }
        // A threshold the queue can never exceed would silently disable the controller.
        if (growThreshold < 0 || growThreshold >= queueCapacity) {
            throw new IllegalArgumentException("need 0 <= growThreshold < queueCapacity, got " + growThreshold);
        }
        if (controlPeriod == null || controlPeriod.isNegative() || controlPeriod.isZero()) {
            throw new IllegalArgumentException("controlPeriod must be positive");
        }
        if (idleTimeout == null || idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("idleTimeout must be positive");
        }
    }

    /**
     * A stage with default control: grows when more than a tenth of the queue stays occupied,
     * samples every {@link #DEFAULT_CONTROL_PERIOD}, retires workers idle for {@link #DEFAULT_IDLE_TIMEOUT}.
     */
    public static StageConfig of(String name, int queueCapacity, int minThreads, int maxThreads) {
        return new StageConfig(name, queueCapacity, minThreads, maxThreads, queueCapacity / 10,
                DEFAULT_CONTROL_PERIOD, DEFAULT_IDLE_TIMEOUT);
    }

    /** This configuration with another grow threshold. */
    public StageConfig withGrowThreshold(int threshold) {
        return new StageConfig(name, queueCapacity, minThreads, maxThreads, threshold, controlPeriod, idleTimeout);
    }

    /** This configuration with another controller sampling period. */
    public StageConfig withControlPeriod(Duration period) {
        return new StageConfig(name, queueCapacity, minThreads, maxThreads, growThreshold, period, idleTimeout);
    }

    /** This configuration with another idle timeout. */
    public StageConfig withIdleTimeout(Duration timeout) {
        return new StageConfig(name, queueCapacity, minThreads, maxThreads, growThreshold, controlPeriod, timeout);
    }
}
