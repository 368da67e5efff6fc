package io.riptide.simulator.placement;

import java.time.Duration;

/**
 * The fixed part of a placement-load run, identical for every placement mode: the highest climb,
 * the reads' hop budget, the read period per client, the measurement window, and each client's
 * phase (its first read's offset into the window).
 */
public record LoadPlan(int climb, int ttl, Duration period, Duration window, long[] phaseNanos) {
    public LoadPlan {
        phaseNanos = phaseNanos.clone();
    }

    @Override
    public long[] phaseNanos() {
        return phaseNanos.clone();
    }
}
