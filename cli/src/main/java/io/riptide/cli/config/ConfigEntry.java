package io.riptide.cli.config;

/** One {@code key = value} line of a config file: the option's long name without dashes, its value, and where it was. */
public record ConfigEntry(String file, int line, String key, String value) {
    /** Where the line is, as {@code file:line}, the prefix of every error about it. */
    public String where() {
        return file + ":" + line;
    }
}
