package io.riptide.simulator.faults;

import io.riptide.simulator.report.ResultJson;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * One invariant of a fault run: what it says, how often it was checked and how often it failed,
 * with the first few failures described (virtual time and what was seen) so a failing seed's
 * result says where to look.
 */
public final class Invariant {
    /** Failures described in full; the rest are only counted. */
    public static final int EXAMPLES = 10;

    private final String name;
    private final String rule;
    private long checks;
    private long violations;
    private long firstViolationNanos = -1;
    private final List<String> examples = new ArrayList<>();

    /** An invariant called {@code name} (lower case, dashes) that says {@code rule}. */
    public Invariant(String name, String rule) {
        this.name = name;
        this.rule = rule;
    }

    /** Counts one check at {@code nowNanos}; if {@code held} is false, one violation, described by {@code what}. */
    public void check(boolean held, long nowNanos, Supplier<String> what) {
        checks++;
        if (held) {
            return;
        }
        violations++;
        if (firstViolationNanos < 0) {
            firstViolationNanos = nowNanos;
        }
        if (examples.size() < EXAMPLES) {
            examples.add(String.format("t=%.3f s: %s", nowNanos / 1e9, what.get()));
        }
    }

    public String name() {
        return name;
    }

    public long checks() {
        return checks;
    }

    public long violations() {
        return violations;
    }

    /** Whether it was never violated. */
    public boolean held() {
        return violations == 0;
    }

    /** The first failures, described. */
    public List<String> examples() {
        return List.copyOf(examples);
    }

    /** Writes it as an object of {@code list}. */
    public void write(ResultJson.ObjectList list) {
        list.add().put("name", name).put("rule", rule).put("checks", checks).put("violations", violations)
                .put("held", held()).put("first_violation_s", firstViolationNanos < 0 ? -1 : firstViolationNanos / 1e9)
                .put("examples", examples);
    }
}
