package io.riptide.simulator.scenario;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code --key value} options given to a scenario, as text, with typed getters that fall back to
 * a default when the option is absent and throw {@link ScenarioOptionException} for a bad value. Names
 * are given without the leading dashes ({@code "nodes"} for {@code --nodes}). Remembers which options
 * were read, so the command can warn about ones no scenario looked at (usually typos).
 */
public final class ScenarioOptions {
    private final Map<String, String> values;
    private final Set<String> read = new TreeSet<>();

    /** Options from {@code values}: name (no dashes) to text. */
    public ScenarioOptions(Map<String, String> values) {
        this.values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
    }

    /** No options at all. */
    public static ScenarioOptions none() {
        return new ScenarioOptions(Map.of());
    }

    /** Whether {@code --name} was given. */
    public boolean has(String name) {
        read.add(name);
        return values.containsKey(name);
    }

    /** All options as given. */
    public Map<String, String> asMap() {
        return values;
    }

    /** Options given but never read by the scenario, in name order. */
    public Set<String> unread() {
        Set<String> unread = new TreeSet<>(values.keySet());
        unread.removeAll(read);
        return unread;
    }

    /** {@code --name} as text, or {@code defaultValue}. */
    public String getString(String name, String defaultValue) {
        read.add(name);
        return values.getOrDefault(name, defaultValue);
    }

    /** {@code --name} as an integer, or {@code defaultValue}. */
    public int getInt(String name, int defaultValue) {
        return getInt(name, defaultValue, Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    /** {@code --name} as an integer in {@code [min, max]}, or {@code defaultValue}. */
    public int getInt(String name, int defaultValue, int min, int max) {
        long value = getLong(name, defaultValue, min, max);
        return (int) value;
    }

    /** {@code --name} as a long integer in {@code [min, max]}, or {@code defaultValue}; accepts {@code 10_000}. */
    public long getLong(String name, long defaultValue, long min, long max) {
        String text = getString(name, null);
        if (text == null) {
            return defaultValue;
        }
        long value;
        try {
            value = Long.parseLong(text.replace("_", ""));
        } catch (NumberFormatException e) {
            throw new ScenarioOptionException(name, "expected an integer, got '" + text + "'");
        }
        if (value < min || value > max) {
            throw new ScenarioOptionException(name, "must be between " + min + " and " + max + ", got " + value);
        }
        return value;
    }

    /** {@code --name} as a finite number, or {@code defaultValue}. */
    public double getDouble(String name, double defaultValue) {
        return getDouble(name, defaultValue, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
    }

    /** {@code --name} as a finite number in {@code [min, max]}, or {@code defaultValue}. */
    public double getDouble(String name, double defaultValue, double min, double max) {
        String text = getString(name, null);
        if (text == null) {
            return defaultValue;
        }
        double value;
        try {
            value = Double.parseDouble(text);
        } catch (NumberFormatException e) {
            throw new ScenarioOptionException(name, "expected a number, got '" + text + "'");
        }
        if (!Double.isFinite(value) || value < min || value > max) {
            throw new ScenarioOptionException(name, "must be between " + min + " and " + max + ", got " + text);
        }
        return value;
    }

    /** {@code --name} as a fraction in {@code [0, 1]}, or {@code defaultValue}. */
    public double getFraction(String name, double defaultValue) {
        return getDouble(name, defaultValue, 0.0, 1.0);
    }

    /** {@code --name} as a boolean ({@code true}/{@code false}, {@code yes}/{@code no}); a bare {@code --name} is true. */
    public boolean getBoolean(String name, boolean defaultValue) {
        String text = getString(name, null);
        if (text == null) {
            return defaultValue;
        }
        switch (text.toLowerCase(java.util.Locale.ROOT)) {
            case "true", "yes", "on", "1":
                return true;
            case "false", "no", "off", "0":
                return false;
            default:
                throw new ScenarioOptionException(name, "expected true or false, got '" + text + "'");
        }
    }
}
