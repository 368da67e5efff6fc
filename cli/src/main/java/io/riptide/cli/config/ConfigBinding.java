package io.riptide.cli.config;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.IGetter;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.ParameterException;

/**
 * A config file's entries matched to one command's options (its mixins' options included) and
 * checked with the options' own picocli converters, so a bad value reads exactly as it would on
 * the command line. Every bad line is kept, not just the first.
 */
public final class ConfigBinding {
    private final Map<OptionSpec, List<String>> values;
    private final Map<OptionSpec, List<ConfigEntry>> origins;
    private final List<ConfigError> errors;

    private ConfigBinding(Map<OptionSpec, List<String>> values, Map<OptionSpec, List<ConfigEntry>> origins, List<ConfigError> errors) {
        this.values = values;
        this.origins = origins;
        this.errors = errors;
    }

    /** Binds {@code file} to {@code command}'s options, keeping the file's own syntax errors first. */
    public static ConfigBinding bind(ConfigFile file, CommandSpec command) {
        Map<String, OptionSpec> byKey = keys(command);
        Map<OptionSpec, List<String>> values = new LinkedHashMap<>();
        Map<OptionSpec, List<ConfigEntry>> origins = new HashMap<>();
        Map<OptionSpec, ConfigEntry> firstLine = new HashMap<>();
        List<ConfigError> errors = new ArrayList<>(file.errors());
        for (ConfigEntry e : file.entries()) {
            OptionSpec option = byKey.get(e.key());
            if (option == null) {
                errors.add(new ConfigError(e.file(), e.line(), unknown(e.key(), byKey, command)));
                continue;
            }
            ConfigEntry earlier = firstLine.putIfAbsent(option, e);
            if (earlier != null && !option.isMultiValue()) {
                errors.add(new ConfigError(e.file(), e.line(), "'" + e.key() + "' is already set on line " + earlier.line()
                        + "; give it once"));
                continue;
            }
            List<String> given = option.isMultiValue() ? splitList(e.value()) : List.of(e.value());
            String refused = refusal(option, given);
            if (refused != null) {
                errors.add(new ConfigError(e.file(), e.line(), refused));
                continue;
            }
            values.computeIfAbsent(option, o -> new ArrayList<>()).addAll(given);
            origins.computeIfAbsent(option, o -> new ArrayList<>()).add(e);
        }
        errors.sort((a, b) -> Integer.compare(a.line(), b.line()));
        return new ConfigBinding(values, origins, List.copyOf(errors));
    }

    /** Every bad line, in file order; empty when the file is good for this command. */
    public List<ConfigError> errors() {
        return errors;
    }

    /** The values the file gives each option it names (one for single-valued options). */
    public Map<OptionSpec, List<String>> values() {
        return values;
    }

    /** The lines behind each option in {@link #values()}. */
    public Map<OptionSpec, List<ConfigEntry>> origins() {
        return origins;
    }

    /** The keys a file may use for {@code command}: long option names without dashes, except help, version and config. */
    public static Map<String, OptionSpec> keys(CommandSpec command) {
        Map<String, OptionSpec> keys = new TreeMap<>();
        for (OptionSpec o : command.options()) {
            if (o.usageHelp() || o.versionHelp() || Arrays.asList(o.names()).contains(ConfigOption.NAME)) {
                continue;
            }
            for (String name : o.names()) {
                if (name.startsWith("--")) {
                    keys.put(name.substring(2), o);
                }
            }
        }
        return keys;
    }

    /** Lists in a file are comma-separated ({@code seed = a:1, b:2}); a repeated key adds to the list. */
    private static List<String> splitList(String value) {
        List<String> items = new ArrayList<>();
        for (String item : value.split(",")) {
            if (!item.isBlank()) {
                items.add(item.strip());
            }
        }
        return items;
    }

    private static String unknown(String key, Map<String, OptionSpec> byKey, CommandSpec command) {
        String nearest = null;
        int best = Integer.MAX_VALUE;
        for (String known : byKey.keySet()) {
            int d = EditDistance.between(key, known);
            if (d < best) {
                best = d;
                nearest = known;
            }
        }
        String base = "unknown option '" + key + "' for '" + command.qualifiedName() + "'";
        if (nearest != null && best <= Math.max(2, key.length() / 3)) {
            return base + "; did you mean '" + nearest + "'?";
        }
        return base + "; see '" + command.qualifiedName() + " --help' for its options";
    }

    /**
     * Parses {@code --key=value} with a copy of the option bound to a scratch holder, so picocli's own
     * converters judge the value and say what they would say on the command line; null if accepted.
     */
    private static String refusal(OptionSpec option, List<String> given) {
        Holder scratch = new Holder();
        OptionSpec copy = OptionSpec.builder(option).required(false).defaultValue(null).initialValue(null)
                .getter(scratch).setter(scratch).build();
        CommandSpec probe = CommandSpec.create().addOption(copy);
        String name = option.longestName();
        String[] args = given.stream().map(v -> name + "=" + v).toArray(String[]::new);
        try {
            new CommandLine(probe).parseArgs(args);
            return null;
        } catch (ParameterException e) {
            return e.getMessage();
        }
    }

    /** Where the scratch copy of an option keeps its value. */
    private static final class Holder implements IGetter, ISetter {
        private Object value;

        @Override
        @SuppressWarnings("unchecked")
        public <T> T get() {
            return (T) value;
        }

        @Override
        public <T> T set(T newValue) {
            @SuppressWarnings("unchecked")
            T old = (T) value;
            value = newValue;
            return old;
        }
    }
}
