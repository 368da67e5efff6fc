package io.riptide.cli.config;

/** One bad line of a config file: where it is and what is wrong with it. */
public record ConfigError(String file, int line, String message) {
    @Override
    public String toString() {
        return file + ":" + line + ": " + message;
    }
}
