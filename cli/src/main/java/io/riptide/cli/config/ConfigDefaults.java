package io.riptide.cli.config;

import java.util.IdentityHashMap;
import java.util.Map;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;

/**
 * A config file's values as picocli defaults: picocli asks only for options the command line left
 * out, so the command line wins. Options the command line names are left out of {@code values}, as
 * picocli also asks about a flag it is setting (to flip its default). Anything else goes to the
 * provider the command had before.
 */
public final class ConfigDefaults implements IDefaultValueProvider {
    private final Map<ArgSpec, String> values;
    private final IDefaultValueProvider before;

    /** {@code values}: single-valued options to their text; {@code before} may be null. */
    public ConfigDefaults(Map<? extends ArgSpec, String> values, IDefaultValueProvider before) {
        this.values = new IdentityHashMap<>(values);
        this.before = before;
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
}
