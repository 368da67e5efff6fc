package io.riptide.proxy.hints;

import io.riptide.core.hint.HintMessages;
import io.riptide.core.hint.HintMessages.LoadReport;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.Cancellable;
import io.riptide.core.runtime.Env;
import io.riptide.dolr.client.OverlayAccess;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The proxy's load, told to its nearest cache manager (paper §4.4, the accelerator's hot-object
 * replication): requests per object since the last report, for the requests no counted hint told
 * it of (a miss hint or a latency hint counts one request at the manager; a throttled hint, a stale
 * hint and a fast hit count none). A proxy in front of a whole lab sends one miss hint per URL per
 * interval whatever the load; these reports are how the manager sees that load climb.
 *
 * <p>Bounded in size and rate: at most {@code maxObjects} objects are tallied between reports (others
 * wait for the next period), and each period sends at most {@code maxReports} reports, the most
 * requested objects first, one anycast each. Protocol code: runs on the cache's loop.
 */
public final class LoadReports {
    /** Most objects tallied between two reports: a proxy's working set in one period, with room to spare. */
    public static final int MAX_TALLIED = 4096;

    private static final Comparator<Map.Entry<Id, Integer>> MOST_FIRST =
            Map.Entry.<Id, Integer>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey());

    private final Env env;
    private final OverlayAccess overlay;
    private final Id managers;
    private final Duration period;
    private final int maxReports;
    private final int maxObjects;
    private final int ttl;
    private final Map<Id, Integer> tally = new HashMap<>();
    private Cancellable next;
    private boolean stopped;
    private long reportsSent;
    private long requestsReported;

    /**
     * Reports to {@code managers} (the cache-manager service) every {@code period}, at most
     * {@code maxReports} per period, tallying at most {@code maxObjects} objects between them.
     */
    public LoadReports(Env env, OverlayAccess overlay, Id managers, Duration period, int maxReports, int maxObjects, int ttl) {
        if (period.isNegative() || period.isZero() || maxReports < 0 || maxObjects < 1) {
            throw new IllegalArgumentException("invalid load reports: every " + period + ", " + maxReports + " per report, "
                    + maxObjects + " objects");
        }
        this.env = env;
        this.overlay = overlay;
        this.managers = managers;
        this.period = period;
        this.maxReports = maxReports;
        this.maxObjects = maxObjects;
        this.ttl = ttl;
    }

    /**
     * Reports every period from now on (nothing goes while nothing was requested), the first after a
     * random fraction of a period so that the proxies of a lab do not report in step.
     */
    public void start() {
        if (maxReports > 0 && next == null && !stopped) {
            next = env.schedule(Duration.ofNanos(1 + (long) (env.random().nextDouble() * period.toNanos())), this::tick);
        }
    }

    /** Stops reporting; what was tallied is dropped. */
    public void stop() {
        stopped = true;
        tally.clear();
        if (next != null) {
            next.cancel();
        }
    }

    private void tick() {
        if (!stopped) {
            report();
            next = env.schedule(period, this::tick);
        }
    }

    /** One request for {@code guid} that no counted hint told the manager of. */
    public void count(Id guid) {
        if (stopped) {
            return;
        }
        Integer n = tally.get(guid);
        if (n != null) {
            tally.put(guid, Math.min(HintMessages.MAX_REPORTED_REQUESTS, n + 1));
        } else if (tally.size() < maxObjects) {
            tally.put(guid, 1);
        }
    }

    /** Sends this period's reports, the most requested objects first, and starts a new tally. */
    void report() {
        if (tally.isEmpty()) {
            return;
        }
        List<Map.Entry<Id, Integer>> entries = new ArrayList<>(tally.entrySet());
        entries.sort(MOST_FIRST);
        for (Map.Entry<Id, Integer> e : entries.subList(0, Math.min(maxReports, entries.size()))) {
            overlay.anycast(managers, new LoadReport(e.getKey(), e.getValue()), ttl);
            reportsSent++;
            requestsReported += e.getValue();
        }
        tally.clear();
    }

    /** Load reports sent so far. */
    public long reportsSent() {
        return reportsSent;
    }

    /** Requests those reports counted. */
    public long requestsReported() {
        return requestsReported;
    }
}
