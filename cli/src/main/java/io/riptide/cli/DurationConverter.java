package io.riptide.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Reads durations as people type them: {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h}, or plain seconds. */
final class DurationConverter implements ITypeConverter<Duration> {
    private static final Pattern FORM = Pattern.compile("(\\d+)(ms|s|m|h)?");

    @Override
    public Duration convert(String value) {
        Matcher m = FORM.matcher(value.strip());
        if (!m.matches()) {
            throw new TypeConversionException("expected a duration such as 500ms, 10s, 2m or 1h, got '" + value + "'");
        }
        long n;
        try {
            n = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new TypeConversionException("duration too long: '" + value + "'");
        }
        String unit = m.group(2) == null ? "s" : m.group(2);
        return switch (unit) {
            case "ms" -> Duration.ofMillis(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofSeconds(n);
        };
    }

    /** The duration as a person would type it back: {@code 500ms}, {@code 30s}, {@code 2m}, {@code 1h}. */
    static String format(Duration d) {
        long ms = d.toMillis();
        if (ms % 1000 != 0) {
            return ms + "ms";
        }
        long s = ms / 1000;
        if (s != 0 && s % 3600 == 0) {
            return s / 3600 + "h";
        }
        return s != 0 && s % 60 == 0 ? s / 60 + "m" : s + "s";
    }
}
