package io.riptide.core.throttle;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Lets a key through at most {@code perWindow} times per window, the window opening when the first
 * of them passes: the project's one "at most so often" rule. A proxy's hints (one per variant per
 * interval), a cache manager's insert requests (one per variant, a few variants per URL) and its
 * placements (one per object) all go through it. Time comes from the caller ({@code nowNanos}, the
 * runtime's clock), so it behaves the same under virtual time.
 *
 * <p>Bounded: past {@code maxKeys} the oldest windows are forgotten, so a key let through early again
 * costs one extra message, never a lost one. Not thread-safe: each owner uses it on its own loop.
 *
 * @param <K> the key (a URL, a GUID, a variant)
 */
public final class Throttle<K> {
    private final long windowNanos;
    private final int perWindow;
    private final int maxKeys;
    // Key -> {when its window closes, how many passed in it}, in the order windows opened.
    private final Map<K, long[]> windows = new LinkedHashMap<>();

    private Throttle(Duration window, int perWindow, int maxKeys) {
        if (window.isNegative() || perWindow < 1 || maxKeys < 1) {
            throw new IllegalArgumentException("invalid throttle: window " + window + ", " + perWindow + " per window, "
                    + maxKeys + " keys");
        }
        this.windowNanos = window.toNanos();
        this.perWindow = perWindow;
        this.maxKeys = maxKeys;
    }

    /** A key passes once per {@code window}; at most {@code maxKeys} windows are remembered. */
    public static <K> Throttle<K> oncePer(Duration window, int maxKeys) {
        return new Throttle<>(window, 1, maxKeys);
    }

    /** A key passes {@code perWindow} times per {@code window}; at most {@code maxKeys} windows are remembered. */
    public static <K> Throttle<K> perWindow(Duration window, int perWindow, int maxKeys) {
        return new Throttle<>(window, perWindow, maxKeys);
    }

    /** Whether a window is open for {@code key} at {@code nowNanos}: something passed for it less than a window ago. */
    public boolean isOpen(K key, long nowNanos) {
        long[] w = windows.get(key);
        return w != null && w[0] - nowNanos > 0;
    }

    /** Whether {@code key} may pass at {@code nowNanos}; if so it is counted (opening a window if none is open). */
    public boolean admit(K key, long nowNanos) {
        long[] w = windows.get(key);
        if (w != null && w[0] - nowNanos > 0) {
            if (w[1] >= perWindow) {
                return false;
            }
            w[1]++;
            return true;
        }
        windows.remove(key);
        windows.put(key, new long[] {nowNanos + windowNanos, 1});
        trim(nowNanos);
        return true;
    }

    private void trim(long nowNanos) {
        Iterator<Map.Entry<K, long[]>> it = windows.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<K, long[]> e = it.next();
            if (windows.size() <= maxKeys && e.getValue()[0] - nowNanos > 0) {
                return; // windows open in order, so the rest are still open too
            }
            it.remove();
        }
    }

    /** Keys whose window is remembered. */
    public int size() {
        return windows.size();
    }
}
