package io.riptide.cachemanager.hints;

import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Lets a key through at most once per window: how a burst of hints for one URL becomes one request.
 * Bounded: past {@code maxKeys} the oldest windows are forgotten (a key let through early again costs
 * one extra request, never a lost one).
 *
 * @param <K> the key (a URL, a GUID)
 */
public final class OncePerWindow<K> {
    private final long windowNanos;
    private final int maxKeys;
    // Key -> when its window closes, in the order windows opened.
    private final Map<K, Long> closes = new LinkedHashMap<>();

    public OncePerWindow(Duration window, int maxKeys) {
        this.windowNanos = window.toNanos();
        this.maxKeys = maxKeys;
    }

    /** Whether {@code key} passed within the window that is open at {@code nowNanos} (so would not pass now). */
    public boolean isOpen(K key, long nowNanos) {
        Long close = closes.get(key);
        return close != null && close - nowNanos > 0;
    }

    /** Whether {@code key} may pass at {@code nowNanos}; if so its window opens now. */
    public boolean admit(K key, long nowNanos) {
        Long close = closes.get(key);
        if (close != null && close - nowNanos > 0) {
            return false;
        }
        closes.remove(key);
        closes.put(key, nowNanos + windowNanos);
        trim(nowNanos);
        return true;
    }

    private void trim(long nowNanos) {
        Iterator<Map.Entry<K, Long>> it = closes.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<K, Long> e = it.next();
            if (closes.size() <= maxKeys && e.getValue() - nowNanos > 0) {
                return; // windows open in order, so the rest are still open too
            }
            it.remove();
        }
    }

    /** Keys whose window is remembered. */
    public int size() {
        return closes.size();
    }
}
