package io.riptide.gateway.monitor;

import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.PushMode;
import io.riptide.core.runtime.Env;
import io.riptide.gateway.GatewayConfig;
import io.riptide.gateway.insert.InsertResult;
import io.riptide.gateway.insert.Inserter;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Monitors: for URLs whose users keep finding them stale, the gateway polls the origin itself at a
 * rate fitted to the object's freshness lifetime, so that updates (new versions) and heartbeats are
 * pushed into the overlay instead of pulled by each user.
 */
public final class Monitors {
    private final Env env;
    private final GatewayConfig config;
    private final Inserter inserter;
    private final PushMode pushMode;
    private final Map<Id, Monitor> monitors = new LinkedHashMap<>();
    private final Map<Id, ArrayDeque<Long>> staleReports = new HashMap<>();
    private long polls;

    private static final class Monitor {
        final String url;
        final Headers requestHeaders;
        Duration interval;
        int failures;
        boolean stopped;

        Monitor(String url, Headers requestHeaders, Duration interval) {
            this.url = url;
            this.requestHeaders = requestHeaders;
            this.interval = interval;
        }
    }

    public Monitors(Env env, GatewayConfig config, Inserter inserter, PushMode pushMode) {
        this.env = env;
        this.pushMode = pushMode;
        this.config = config;
        this.inserter = inserter;
    }

    /** Sees every finished insert: stale reports may install a monitor. */
    public void onFinished(Inserter.Finished f) {
        if (monitors.containsKey(f.jobKey())) {
            return;
        }
        if (pushMode.covers(f.url().value()) && cacheable(f.result())) {
            // Push mode: kept current by a push every interval, whatever its freshness lifetime says.
            installEvery(f.jobKey(), f.url().value(), f.requestHeaders(), pushMode.interval());
            return;
        }
        if (!f.stale()) {
            return;
        }
        long now = env.nowNanos();
        ArrayDeque<Long> reports = staleReports.computeIfAbsent(f.jobKey(), k -> new ArrayDeque<>());
        reports.addLast(now);
        while (!reports.isEmpty() && reports.peekFirst() < now - config.staleWindow().toNanos()) {
            reports.pollFirst();
        }
        if (staleReports.size() > 100_000) {
            staleReports.clear(); // bounded: counting restarts rather than memory growing
        }
        if (reports.size() >= config.monitorAfterStale() && cacheable(f.result())) {
            staleReports.remove(f.jobKey());
            install(f.jobKey(), f.url().value(), f.requestHeaders(), f.freshnessSeconds());
        }
    }

    private static boolean cacheable(InsertResult r) {
        return r.outcome() == Outcome.INSERTED || r.outcome() == Outcome.UNCHANGED;
    }

    /** Starts monitoring {@code url} (with these request headers) now; returns false if at the limit. */
    public boolean monitor(String url, Headers requestHeaders, long freshnessSeconds) {
        return install(null, url, requestHeaders, freshnessSeconds);
    }

    private boolean install(Id key, String url, Headers requestHeaders, long freshnessSeconds) {
        if (monitors.size() >= config.maxMonitors()) {
            return false;
        }
        Id id = key != null ? key : Id.hash("monitor\n" + url + "\n" + requestHeaders);
        if (monitors.containsKey(id)) {
            return true;
        }
        return installEvery(id, url, requestHeaders, intervalFor(freshnessSeconds));
    }

    private boolean installEvery(Id id, String url, Headers requestHeaders, Duration interval) {
        if (monitors.size() >= config.maxMonitors()) {
            return false;
        }
        Monitor m = new Monitor(url, requestHeaders, interval);
        monitors.put(id, m);
        schedule(id, m);
        return true;
    }

    /** Half the freshness lifetime, within the configured bounds: a poll lands before the copy goes stale. */
    Duration intervalFor(long freshnessSeconds) {
        Duration half = Duration.ofMillis(freshnessSeconds * 500);
        if (half.compareTo(config.minMonitorInterval()) < 0) {
            return config.minMonitorInterval();
        }
        return half.compareTo(config.maxMonitorInterval()) > 0 ? config.maxMonitorInterval() : half;
    }

    private void schedule(Id id, Monitor m) {
        env.schedule(m.interval, () -> {
            if (m.stopped) {
                return;
            }
            polls++;
            inserter.refresh(m.url, m.requestHeaders, result -> {
                if (result.outcome() == Outcome.NOT_CACHEABLE || result.outcome() == Outcome.REJECTED) {
                    stop(id);
                    return;
                }
                m.failures = result.outcome() == Outcome.ORIGIN_FAILED ? m.failures + 1 : 0;
                if (m.failures >= 5) {
                    stop(id); // an origin gone for good is not polled forever
                    return;
                }
                schedule(id, m);
            });
        });
    }

    private void stop(Id id) {
        Monitor m = monitors.remove(id);
        if (m != null) {
            m.stopped = true;
        }
    }

    /** Monitors running. */
    public int size() {
        return monitors.size();
    }

    /** Origin polls monitors have made. */
    public long polls() {
        return polls;
    }
}
