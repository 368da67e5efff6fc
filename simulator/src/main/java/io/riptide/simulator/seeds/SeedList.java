package io.riptide.simulator.seeds;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The seeds a multi-seed run goes through, in the order given: parsed from {@code 1-5}, {@code 1,2,3}
 * or a mix ({@code 1-3,7}). The first seed listed is the one whose figures the summary's top level
 * carries, so the order matters and is kept.
 */
public record SeedList(List<Long> seeds) {
    /** More seeds than this is almost surely a typo ({@code 1-10000}), and would run for days. */
    public static final int MAX_SEEDS = 1000;

    /** Seeds as given; at least one, no repeats. */
    public SeedList {
        seeds = List.copyOf(seeds);
        if (seeds.isEmpty()) {
            throw new IllegalArgumentException("no seeds given");
        }
        if (new LinkedHashSet<>(seeds).size() != seeds.size()) {
            throw new IllegalArgumentException("a seed is listed twice: " + seeds);
        }
    }

    /**
     * Parses {@code text}: comma-separated items, each a seed ({@code 7}) or an ascending range
     * ({@code 1-5}, both ends included). Seeds are non-negative, since a minus sign would read as a range.
     *
     * @throws IllegalArgumentException saying what is wrong, for a message to the user
     */
    public static SeedList parse(String text) {
        List<Long> seeds = new ArrayList<>();
        Set<Long> seen = new LinkedHashSet<>();
        for (String item : text.split(",", -1)) {
            String trimmed = item.strip();
            if (trimmed.isEmpty()) {
                throw new IllegalArgumentException("expected seeds such as 1-5 or 1,2,3, got '" + text + "'");
            }
            int dash = trimmed.indexOf('-');
            long from = number(dash < 0 ? trimmed : trimmed.substring(0, dash), text);
            long to = dash < 0 ? from : number(trimmed.substring(dash + 1), text);
            if (to < from) {
                throw new IllegalArgumentException("range " + trimmed + " goes down; write it low-high, e.g. " + to + "-" + from);
            }
            if (to - from >= MAX_SEEDS || seeds.size() + (to - from + 1) > MAX_SEEDS) {
                throw new IllegalArgumentException("more than " + MAX_SEEDS + " seeds in '" + text + "'");
            }
            for (long s = from; s <= to; s++) {
                if (!seen.add(s)) {
                    throw new IllegalArgumentException("seed " + s + " is listed twice in '" + text + "'");
                }
                seeds.add(s);
            }
        }
        return new SeedList(seeds);
    }

    /** How many seeds. */
    public int size() {
        return seeds.size();
    }

    /** The seeds as text, as the report shows them: {@code 1, 2, 3}. */
    public String text() {
        return String.join(", ", seeds.stream().map(String::valueOf).toList());
    }

    private static long number(String item, String text) {
        String trimmed = item.strip();
        if (trimmed.isEmpty() || !trimmed.chars().allMatch(Character::isDigit)) {
            throw new IllegalArgumentException("expected seeds such as 1-5 or 1,2,3, got '" + text + "'");
        }
        try {
            return Long.parseLong(trimmed);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("seed " + trimmed + " is too large");
        }
    }
}
