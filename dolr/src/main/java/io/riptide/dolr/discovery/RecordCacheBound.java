package io.riptide.dolr.discovery;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.jmdns.JmDNS;
import javax.jmdns.impl.DNSCache;
import javax.jmdns.impl.DNSEntry;
import javax.jmdns.impl.DNSRecord;
import javax.jmdns.impl.JmDNSImpl;

/**
 * Keeps JmDNS's record cache within a bound. JmDNS caches every record any host on the link sends,
 * of any name and type, for as long as the sender's TTL says, with no limit: one stranger sending
 * records under fresh names grows the heap of every node and proxy listening until it runs out. Once
 * a second (and on demand) the cache is trimmed to {@value #MAX_RECORDS} records: records about
 * anything but Riptide's service go first, then Riptide's own, oldest first each time. Between trims
 * the cache can grow by what the link carries in a second; what a browser keeps of Riptide's
 * announcements is bounded separately ({@link Browser}).
 */
final class RecordCacheBound implements AutoCloseable {
    /** Records kept at most: far more than a campus's announcements (a few per node) need. */
    static final int MAX_RECORDS = 2048;

    private final DNSCache cache;
    private final int max;
    private final ScheduledExecutorService timer;
    private final AtomicLong trimmed = new AtomicLong();

    private RecordCacheBound(DNSCache cache, int max, boolean scheduled) {
        this.cache = cache;
        this.max = max;
        this.timer = scheduled ? Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "riptide-mdns-cache-bound");
            t.setDaemon(true);
            return t;
        }) : null;
        if (timer != null) {
            timer.scheduleWithFixedDelay(this::trim, 1, 1, TimeUnit.SECONDS);
        }
    }

    /** Bounds {@code mdns}'s cache, trimmed every second until closed; a JmDNS of another make is left as it is. */
    static RecordCacheBound start(JmDNS mdns) {
        DNSCache cache = mdns instanceof JmDNSImpl impl ? impl.getCache() : new DNSCache();
        return new RecordCacheBound(cache, MAX_RECORDS, true);
    }

    /** A bound on {@code cache} that trims only when {@link #trim} is called (tests). */
    static RecordCacheBound manual(DNSCache cache, int max) {
        return new RecordCacheBound(cache, max, false);
    }

    /** Trims the cache to the bound now; returns how many records it removed. */
    int trim() {
        List<DNSEntry> all = new ArrayList<>(cache.allValues());
        int excess = all.size() - max;
        if (excess <= 0) {
            return 0;
        }
        all.sort(Comparator.comparing((DNSEntry e) -> isRiptide(e)).thenComparingLong(RecordCacheBound::created));
        int removed = 0;
        for (int i = 0; i < all.size() && removed < excess; i++) {
            if (cache.removeDNSEntry(all.get(i))) {
                removed++;
            }
        }
        trimmed.addAndGet(removed);
        return removed;
    }

    /** Records removed to keep the bound, so far. */
    long trimmed() {
        return trimmed.get();
    }

    private static boolean isRiptide(DNSEntry e) {
        return e.getName().toLowerCase(Locale.ROOT).contains(Announcement.SERVICE_TYPE.toLowerCase(Locale.ROOT));
    }

    private static long created(DNSEntry e) {
        return e instanceof DNSRecord r ? r.getCreated() : Long.MIN_VALUE;
    }

    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
