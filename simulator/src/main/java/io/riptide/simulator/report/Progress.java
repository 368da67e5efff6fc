package io.riptide.simulator.report;

import java.io.PrintWriter;
import java.util.function.LongSupplier;

/**
 * Shows how far a long run has got, on stderr: on a terminal, one bar redrawn in place at most five
 * times a second (percentage, count, elapsed, ETA); elsewhere, a plain line at every tenth, so CI
 * logs stay short. One task at a time: {@link #begin}, {@link #advance}..., {@link #finish}.
 */
public final class Progress {
    private static final long REDRAW_NANOS = 200_000_000L;
    private static final int BAR_WIDTH = 30;
    /** ANSI erase-to-end-of-line, so a shorter redraw leaves no tail of the previous one. */
    private static final String CLEAR_TO_END = "\u001b[K";

    private final PrintWriter out;
    private final boolean terminal;
    private final LongSupplier clock;
    private String label = "";
    private long total;
    private long done;
    private long startNanos;
    private long lastDrawNanos;
    private int lastTenth;
    private boolean active;

    /** Progress written to {@code out}; {@code terminal} chooses the redrawn bar over plain lines. */
    public Progress(PrintWriter out, boolean terminal, LongSupplier clockNanos) {
        this.out = out;
        this.terminal = terminal;
        this.clock = clockNanos;
    }

    /** Progress on {@code out} timed by the system's monotonic clock. */
    public Progress(PrintWriter out, boolean terminal) {
        this(out, terminal, System::nanoTime);
    }

    /** Progress that shows nothing, for tests and embedded runs. */
    public static Progress silent() {
        return new Progress(new PrintWriter(PrintWriter.nullWriter()), false, System::nanoTime);
    }

    /** Starts a task of {@code total} steps named {@code label}. */
    public void begin(String label, long total) {
        this.label = label;
        this.total = Math.max(0, total);
        this.done = 0;
        this.startNanos = clock.getAsLong();
        this.lastDrawNanos = startNanos;
        this.lastTenth = 0;
        this.active = true;
        if (!terminal) {
            out.println(label + ": started, " + total + " steps");
            out.flush();
        }
    }

    /** One step done. */
    public void step() {
        advance(1);
    }

    /** {@code steps} more steps done. */
    public void advance(long steps) {
        done = Math.min(total, done + steps);
        if (!active) {
            return;
        }
        if (terminal) {
            long now = clock.getAsLong();
            if (now - lastDrawNanos >= REDRAW_NANOS) {
                lastDrawNanos = now;
                out.print("\r" + line(now) + CLEAR_TO_END);
                out.flush();
            }
        } else {
            int tenth = total == 0 ? 10 : (int) (done * 10 / total);
            if (tenth > lastTenth && tenth < 10) {
                lastTenth = tenth;
                out.println(line(clock.getAsLong()));
                out.flush();
            }
        }
    }

    /** Ends the task, showing its final state and total time. */
    public void finish() {
        if (!active) {
            return;
        }
        active = false;
        long now = clock.getAsLong();
        String text = label + ": done, " + done + "/" + total + " in " + duration(now - startNanos);
        out.println(terminal ? "\r" + text + CLEAR_TO_END : text);
        out.flush();
    }

    private String line(long now) {
        long elapsed = now - startNanos;
        double fraction = total == 0 ? 1 : done / (double) total;
        String eta = done == 0 ? "?" : duration((long) (elapsed * (total - done) / (double) done));
        String percent = String.format("%3d%%", (int) (fraction * 100));
        String counts = done + "/" + total + "  elapsed " + duration(elapsed) + "  ETA " + eta;
        if (!terminal) {
            return label + ": " + percent.strip() + " (" + counts + ")";
        }
        int filled = (int) (fraction * BAR_WIDTH);
        return label + " [" + "#".repeat(filled) + ".".repeat(BAR_WIDTH - filled) + "] " + percent + "  " + counts;
    }

    /** {@code nanos} as {@code m:ss}, or {@code h:mm:ss} past an hour. */
    static String duration(long nanos) {
        long seconds = Math.max(0, nanos) / 1_000_000_000L;
        long h = seconds / 3600;
        long m = seconds / 60 % 60;
        long s = seconds % 60;
        return h > 0 ? String.format("%d:%02d:%02d", h, m, s) : String.format("%d:%02d", m, s);
    }
}
