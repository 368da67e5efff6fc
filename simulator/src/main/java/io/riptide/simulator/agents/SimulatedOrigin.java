package io.riptide.simulator.agents;

import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Headers;
import io.riptide.core.runtime.Env;
import io.riptide.gateway.Origin;
import io.riptide.gateway.origin.OriginRequest;
import io.riptide.gateway.origin.OriginResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;

/**
 * The web servers of a simulation: documents by URL (its canonical form, so a proxy asking for the URL as
 * the browser wrote it and a gateway asking for the canonical one reach the same document), each host
 * behind its own {@link OriginLink}.
 * A fetch completes later in virtual time, scheduled on the fetching node's {@link Env}, whether
 * the fetcher is a gateway or a proxy going to the origin itself. Fetches are counted per URL.
 * Optionally each response first waits a server think time, exponentially distributed around a
 * mean (PolyMix-3's origin servers: 2.5 s), drawn from the origin's own seeded random stream.
 */
public final class SimulatedOrigin {
    private final double bitsPerSecond;
    private final Duration latency;
    private final double thinkMeanNanos;
    private final SplittableRandom thinkRandom;
    private final Map<String, OriginDocument> documents = new HashMap<>();
    private final Map<String, OriginLink> links = new HashMap<>();
    private final Map<String, Long> fetches = new HashMap<>();
    private final Map<String, Long> gatewayFetches = new HashMap<>();
    /** The node of the gateway that fetched each URL last: the one that holds its newest version. */
    private final Map<String, Env> lastGateway = new HashMap<>();
    /** The servers' own wall clock, or null: then each fetch reads the fetcher's (the same, without clock skew). */
    private java.util.function.LongSupplier serverClock;

    /** Origins whose links carry {@code bitsPerSecond}, each fetch costing {@code latency} besides. */
    public SimulatedOrigin(double bitsPerSecond, Duration latency) {
        this(bitsPerSecond, latency, Duration.ZERO, 0);
    }

    /** As {@link #SimulatedOrigin(double, Duration)}, each response after a think time of mean {@code thinkMean}. */
    public SimulatedOrigin(double bitsPerSecond, Duration latency, Duration thinkMean, long seed) {
        if (thinkMean.isNegative()) {
            throw new IllegalArgumentException("negative think time " + thinkMean);
        }
        this.bitsPerSecond = bitsPerSecond;
        this.latency = latency;
        this.thinkMeanNanos = thinkMean.toNanos();
        this.thinkRandom = new SplittableRandom(seed);
    }

    private long thinkNanos() {
        // Exponential: -mean * ln(U), U in (0, 1].
        return thinkMeanNanos == 0 ? 0 : (long) (-thinkMeanNanos * Math.log(1.0 - thinkRandom.nextDouble()));
    }

    /**
     * Makes the servers keep their own time, {@code wallClockMillis}: which version is current, and
     * the Date they send, follow it rather than the clock of whoever fetches, as they must once the
     * fetchers' clocks are skewed. The fetcher's own request and response times still come from its
     * clock (RFC 9111 reads them from the cache's).
     */
    public void keepOwnClock(java.util.function.LongSupplier wallClockMillis) {
        this.serverClock = wallClockMillis;
    }

    /** Serves {@code document} from now on. */
    public void serve(OriginDocument document) {
        documents.put(key(document.url()), document);
    }

    /** The URL as documents and fetches are kept: canonical when it can be, as given otherwise. */
    private static String key(String url) {
        try {
            return CanonicalUrl.of(url).value();
        } catch (IllegalArgumentException e) {
            return url;
        }
    }

    /** This origin as a gateway on {@code env}'s node sees it. */
    public Origin seenFrom(Env env) {
        return request -> {
            String url = key(request.url().toString());
            gatewayFetches.merge(url, 1L, Long::sum);
            lastGateway.put(url, env);
            return fetch(env, request);
        };
    }

    /** Fetches of {@code url} by a gateway ({@link #seenFrom}) so far: nonzero once a gateway holds (or held) it. */
    public long gatewayFetches(String url) {
        return gatewayFetches.getOrDefault(key(url), 0L);
    }

    /** The node ({@link Env}) of the gateway that fetched {@code url} last, or null if no gateway has. */
    public Env lastGatewayFetcher(String url) {
        return lastGateway.get(key(url));
    }

    /** Fetches for {@code request}, completing when the response has crossed the host's link. */
    public CompletableFuture<OriginResponse> fetch(Env env, OriginRequest request) {
        String url = key(request.url().toString());
        fetches.merge(url, 1L, Long::sum);
        long requestTime = env.wallClockMillis();
        long serverTime = serverClock == null ? requestTime : serverClock.getAsLong();
        OriginDocument doc = documents.get(url);
        byte[] body = doc == null ? "not found\n".getBytes(StandardCharsets.US_ASCII) : null;
        // The version is the one current when the server starts answering, not when the bytes arrive.
        long version = doc == null ? 0 : doc.versionAt(serverTime);
        int bytes = doc == null ? body.length : doc.sizeBytes();
        OriginLink link = links.computeIfAbsent(request.url().getHost(), h -> new OriginLink(bitsPerSecond, latency.toNanos()));
        CompletableFuture<OriginResponse> future = new CompletableFuture<>();
        long think = thinkNanos();
        Runnable respond = () -> env.schedule(Duration.ofNanos(link.send(env.nowNanos(), bytes)), () -> {
            long responseTime = env.wallClockMillis();
            future.complete(doc == null
                    ? new OriginResponse(request.url(), 404, "Not Found", Headers.of("Content-Type", "text/plain"), body,
                            requestTime, responseTime, 0)
                    : new OriginResponse(request.url(), 200, "OK", doc.headers(serverTime), doc.body(version), requestTime,
                            responseTime, 0));
        });
        // The response joins the link's queue when the server has finished thinking.
        if (think == 0) {
            respond.run();
        } else {
            env.schedule(Duration.ofNanos(think), respond);
        }
        return future;
    }

    /** Fetches of {@code url} so far, by anyone. */
    public long fetches(String url) {
        return fetches.getOrDefault(key(url), 0L);
    }

    /** The link of {@code host}, if anything was fetched from it. */
    public OriginLink link(String host) {
        return links.get(host);
    }
}
