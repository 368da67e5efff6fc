package io.riptide.cachemanager.hints;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Lets a key through at most {@code perWindow} times per window, the window opening when the first
 * of them passes: how one URL's distinct variants are capped. Bounded like {@link OncePerWindow}:
 * past {@code maxKeys} the oldest windows are forgotten.
 *
 * @param <K> the key (a URL)
 */
public final class CountPerWindow<K> {
    private final long windowNanos;
    private final int perWindow;
    private final int maxKeys;
    // Key -> {when its window closes, how many passed in it}, in the order windows opened.
    private final Map<K, long[]> windows = new LinkedHashMap<>();

    public CountPerWindow(Duration window, int perWindow, int maxKeys) {
        this.windowNanos = window.toNanos();
        this.perWindow = perWindow;
        this.maxKeys = maxKeys;
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
