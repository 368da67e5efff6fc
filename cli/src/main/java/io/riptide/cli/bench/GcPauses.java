package io.riptide.cli.bench;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The stop-the-world pauses in a JVM's unified GC log ({@code -Xlog:gc*:file=...}): every {@code GC(n) Pause ...}
 * line that ends in its duration, as G1, Parallel, Serial, Shenandoah ({@code [gc]}) and ZGC ({@code [gc,phases]})
 * write them. Start lines without a duration and statistics tables are not pauses.
 *
 * @param millis each pause's duration in milliseconds, in log order
 */
public record GcPauses(double[] millis) {
    private static final Pattern PAUSE = Pattern.compile("\\bGC\\(\\d+\\)\\s+(?:[A-Za-z]:\\s+)?Pause\\b.*?\\s(\\d+(?:\\.\\d+)?)ms\\s*$");

    /** The pauses in {@code lines}. */
    public static GcPauses parse(List<String> lines) {
        List<Double> pauses = new ArrayList<>();
        for (String line : lines) {
            Matcher m = PAUSE.matcher(line);
            if (m.find()) {
                pauses.add(Double.parseDouble(m.group(1)));
            }
        }
        return new GcPauses(pauses.stream().mapToDouble(Double::doubleValue).toArray());
    }

    /** The pauses logged in {@code log} from byte {@code offset} on: those of a window that began when the log was that long. */
    public static GcPauses since(Path log, long offset) throws IOException {
        if (!Files.exists(log)) {
            return new GcPauses(new double[0]);
        }
        try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
            long length = f.length();
            if (offset >= length) {
                return new GcPauses(new double[0]);
            }
            f.seek(offset);
            byte[] bytes = new byte[(int) Math.min(Integer.MAX_VALUE - 8, length - offset)];
            f.readFully(bytes);
            return parse(new String(bytes, StandardCharsets.ISO_8859_1).lines().toList());
        }
    }

    /** How long {@code log} is now, the offset to pass to {@link #since} later; 0 when it does not exist yet. */
    public static long length(Path log) throws IOException {
        return Files.exists(log) ? Files.size(log) : 0;
    }

    public int count() {
        return millis.length;
    }

    /** The longest pause, NaN when there was none. */
    public double maxMs() {
        return Arrays.stream(millis).max().orElse(Double.NaN);
    }

    /** The pauses' total. */
    public double totalMs() {
        return Arrays.stream(millis).sum();
    }

    /**
     * The {@code percentile}th percentile pause by nearest rank (the smallest pause at or above which that share of
     * pauses lies); with fewer than 1000 pauses the 99.9th is the longest. NaN when there was none.
     */
    public double percentileMs(double percentile) {
        if (millis.length == 0) {
            return Double.NaN;
        }
        double[] sorted = millis.clone();
        Arrays.sort(sorted);
        int rank = (int) Math.ceil(percentile / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
