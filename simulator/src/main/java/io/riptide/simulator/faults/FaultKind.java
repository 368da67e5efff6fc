package io.riptide.simulator.faults;

import java.util.Locale;

/** What a fault does to the simulated world. */
public enum FaultKind {
    /** Messages between hosts dropped at random. */
    LOSS,
    /** Messages between hosts delivered twice. */
    DUPLICATION,
    /** Messages given a random extra delay, so they overtake each other. */
    REORDERING,
    /** Some stubs cut off from the rest, until the partition heals. */
    PARTITION,
    /** A node crashes and later starts again on its disk. */
    CRASH,
    /** A host's wall clock steps away from true time, and stays there. */
    CLOCK_SKEW,
    /** A node's disk reads take longer, for a while. */
    SLOW_DISK;

    /** The name in options and result.json: lower case with dashes. */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The kind called {@code label}, or null. */
    public static FaultKind of(String label) {
        for (FaultKind k : values()) {
            if (k.label().equals(label.strip().toLowerCase(Locale.ROOT))) {
                return k;
            }
        }
        return null;
    }
}
