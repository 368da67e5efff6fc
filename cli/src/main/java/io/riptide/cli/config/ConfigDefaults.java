package io.riptide.cli.config;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * A config file's values as picocli defaults: picocli asks only for options the command line left
 * out, so the command line wins. Options the command line names are left out of {@code values}, as
 * picocli also asks about a flag it is setting (to flip its default). Anything else goes to the
 * provider the command had before. Also remembers which lines set which option, so a later
 * complaint about an option can point at its line.
 */
public final class ConfigDefaults implements IDefaultValueProvider {
    private final Map<ArgSpec, String> values;
    private final Map<ArgSpec, List<ConfigEntry>> origins;
    private final IDefaultValueProvider before;

    /**
     * {@code values}: single-valued options to their text; {@code origins}: the lines behind every
     * option the file set (lists too); {@code before} may be null.
     */
    public ConfigDefaults(Map<? extends ArgSpec, String> values, Map<? extends ArgSpec, List<ConfigEntry>> origins,
                          IDefaultValueProvider before) {
        this.values = new IdentityHashMap<>(values);
        this.origins = new IdentityHashMap<>(origins);
        // A command run again keeps one file's defaults, not a chain of every file it was ever given.
        this.before = before instanceof ConfigDefaults earlier ? earlier.before : before;
    }

    @Override
    public String defaultValue(ArgSpec argSpec) throws Exception {
        String value = values.get(argSpec);
        if (value != null) {
            // Picocli expands ${...} in default values; a file's text is taken literally.
            return value.replace("${", "$${");
        }
        return before == null ? null : before.defaultValue(argSpec);
    }

    /**
     * Where the option a usage message is about was set, as {@code " (from node.conf:3)"}: the message
     * must start with the option's name, as the commands' own checks do; "" if it is not from a file.
     */
    public static String whereSet(CommandSpec command, String message) {
        if (!(command.defaultValueProvider() instanceof ConfigDefaults defaults) || message == null) {
            return "";
        }
        for (Map.Entry<ArgSpec, List<ConfigEntry>> e : defaults.origins.entrySet()) {
            if (e.getKey() instanceof OptionSpec o && aboutOption(message, o)) {
                return " (from " + e.getValue().stream().map(ConfigEntry::where).collect(Collectors.joining(", ")) + ")";
            }
        }
        return "";
    }

    private static boolean aboutOption(String message, OptionSpec option) {
        for (String name : option.names()) {
            if (message.startsWith(name + ":") || message.startsWith(name + " ")) {
                return true;
            }
        }
        return false;
    }
}
