package io.riptide.cli.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A config file as written: {@code key = value} lines in order, and the lines that are not. Keys are
 * long option names without the dashes; {@code #} starts a comment line; blank lines are ignored.
 * What the keys mean is {@link ConfigBinding}'s business, not this class's.
 */
public record ConfigFile(String name, List<ConfigEntry> entries, List<ConfigError> errors) {
    private static final Pattern KEY = Pattern.compile("[a-z0-9][a-z0-9-]*");
    /** A config file is a handful of lines; a bigger one is a wrong file, and reading it whole would cost memory. */
    private static final long MAX_BYTES = 1 << 20;

    public ConfigFile {
        entries = List.copyOf(entries);
        errors = List.copyOf(errors);
    }

    /** Reads and splits {@code file}; an IOException only if it cannot be read at all. */
    public static ConfigFile read(Path file) throws IOException {
        if (Files.size(file) > MAX_BYTES) {
            throw new IOException("larger than " + (MAX_BYTES >> 10) + " KiB; is this really a config file?");
        }
        return parse(file.toString(), Files.readAllLines(file, StandardCharsets.UTF_8));
    }

    /** Splits {@code lines} (named {@code name} in errors) into entries and errors, keeping going past bad lines. */
    public static ConfigFile parse(String name, List<String> lines) {
        List<ConfigEntry> entries = new ArrayList<>();
        List<ConfigError> errors = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            int number = i + 1;
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int eq = line.indexOf('=');
            if (eq < 0) {
                errors.add(new ConfigError(name, number, "expected 'key = value', got '" + line + "'"));
                continue;
            }
            String key = line.substring(0, eq).strip();
            String value = line.substring(eq + 1).strip();
            if (key.startsWith("-")) {
                errors.add(new ConfigError(name, number, "write the key without dashes: '" + key.replaceFirst("^-+", "") + " = ...'"));
            } else if (!KEY.matcher(key).matches()) {
                errors.add(new ConfigError(name, number, "'" + key + "' is not an option name (lower-case letters, digits and dashes)"));
            } else if (value.isEmpty()) {
                errors.add(new ConfigError(name, number, "no value for '" + key + "'; remove the line to use the default"));
            } else {
                entries.add(new ConfigEntry(name, number, key, value));
            }
        }
        return new ConfigFile(name, entries, errors);
    }
}
