package io.riptide.simulator.seeds;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One seed's result for one scenario: the seed, the directory its outputs are in (relative to the
 * multi-seed run's directory, e.g. {@code seed-2} or {@code seed-2/hit-latency}), and its
 * {@code result.json} (null if that run wrote none).
 */
public record SeedOutcome(long seed, String dir, JsonNode result) {
    /** Whether the run gave a verdict ({@code target_met}); topology, for one, has no target. */
    public boolean hasVerdict() {
        return result != null && result.has("target_met") && result.get("target_met").isBoolean();
    }

    /** Whether the run met its target; a run with no verdict or no result did not. */
    public boolean met() {
        return hasVerdict() && result.get("target_met").asBoolean();
    }

    /** As the report says it: "target met", "target missed", "no target" or "not run". */
    public String verdict() {
        return result == null ? "not run" : !hasVerdict() ? "no target" : met() ? "target met" : "target missed";
    }
}
