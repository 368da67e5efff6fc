package io.riptide.core.runtime.sim;

import io.riptide.core.stage.StageConfig;
import java.util.Objects;

/**
 * How a stage behaves on every simulated host: the same {@link StageConfig} a real process starts it
 * with (queue bound, most threads), and how long one event's work takes on a core.
 *
 * <p>The simulated stage serves with {@code config.maxThreads()} servers from the start. The real
 * controller adds workers up to that maximum within two control periods (0.2 s) of a queue that
 * stays long, and under light load the pool size does not matter, so modelling the controller's
 * ramp would add events without changing what experiments measure.
 *
 * @param config the stage's configuration as over TCP
 * @param serviceNanos virtual CPU time one event's work takes (0: free, and no core is used)
 */
public record SimStageSpec(StageConfig config, long serviceNanos) {
    public SimStageSpec {
        Objects.requireNonNull(config, "config");
        if (serviceNanos < 0) {
            throw new IllegalArgumentException("service time must not be negative, got " + serviceNanos);
        }
    }

    /** The stage's name. */
    public String name() {
        return config.name();
    }
}
