package io.riptide.cli.config;

import java.util.List;

/** Every bad line of one config file, said at once so one edit can fix them all. */
public record ConfigErrors(String file, List<ConfigError> errors) {
    public ConfigErrors {
        errors = List.copyOf(errors);
    }

    /** A heading with the count, then one {@code file:line: message} line per error. */
    public String message() {
        StringBuilder b = new StringBuilder();
        b.append(errors.size()).append(errors.size() == 1 ? " error" : " errors").append(" in ").append(file)
                .append(" (nothing was started):");
        for (ConfigError e : errors) {
            b.append(System.lineSeparator()).append(e);
        }
        return b.toString();
    }
}
