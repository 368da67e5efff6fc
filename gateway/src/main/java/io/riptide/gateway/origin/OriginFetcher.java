package io.riptide.gateway.origin;

import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.util.concurrent.ScheduledFuture;
import java.net.URI;
import java.time.Clock;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Fetches objects from origin servers over HTTP/1.1 and HTTPS for the gateway, never with the
 * user's credentials, within hard limits (see {@link OriginFetcherConfig}). Unless the config
 * allows private origins, it fetches public origins only: an origin on a loopback, private,
 * link-local or other non-public address (an IP literal, or what its name resolves to at connect
 * time) fails as {@link FetchException.Reason#FORBIDDEN_ORIGIN} without being contacted.
 *
 * <p>Non-blocking: fetches run on the given I/O event loops, and the returned futures complete on
 * them, so work that follows a fetch (hashing, signing) belongs on a SEDA stage, not in the
 * callback. Every future completes, within the deadline, with a response or a {@link FetchException}.
 */
public final class OriginFetcher implements AutoCloseable {
    private final EventLoopGroup ioGroup;
    private final OriginFetcherConfig config;
    private final Clock clock;
    private final FetchCounters counters = new FetchCounters();
    private final HostRateLimiter limiter;
    private final OriginPools pools;
    /** Null when private origins are allowed. */
    private final AddressPolicy addresses;
    private final Set<Fetch> inFlight = ConcurrentHashMap.newKeySet();
    private final AtomicInteger admitted = new AtomicInteger();
    private volatile boolean closed;

    /**
     * A fetcher on {@code ioGroup} (not owned: the caller shuts it down after {@link #close}).
     *
     * @param tls how to validate origins' certificates; {@link OriginTls#systemDefault()} on the open network
     * @param clock stamps request and response times and drives the per-host rate limit
     */
    public OriginFetcher(EventLoopGroup ioGroup, OriginFetcherConfig config, OriginTls tls, Clock clock) {
        this(ioGroup, config, tls, clock, AddressPolicy.PUBLIC_ONLY);
    }

    /** As the public constructor, with {@code addresses} as the rule unless the config allows private origins. */
    OriginFetcher(EventLoopGroup ioGroup, OriginFetcherConfig config, OriginTls tls, Clock clock, AddressPolicy addresses) {
        this.ioGroup = Objects.requireNonNull(ioGroup, "ioGroup");
        this.config = Objects.requireNonNull(config, "config");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.limiter = new HostRateLimiter(config.fetchesPerSecondPerHost(), config.burstPerHost(),
                config.maxTrackedHosts(), clock);
        this.addresses = config.allowPrivateOrigins() ? null : Objects.requireNonNull(addresses, "addresses");
        this.pools = new OriginPools(ioGroup, config, Objects.requireNonNull(tls, "tls"), counters, this.addresses);
    }

    /**
     * Fetches {@code request}, following redirects. The future fails with a {@link FetchException}
     * saying why when the request is invalid, the origin misbehaves, a limit is hit, or the fetcher
     * is closed; it never completes a response that broke the limits.
     */
    public CompletableFuture<OriginResponse> fetch(OriginRequest request) {
        Objects.requireNonNull(request, "request");
        counters.fetch();
        FetchException refused = refusal(request);
        if (refused != null) {
            counters.failed(refused.reason());
            return CompletableFuture.failedFuture(refused);
        }
        if (admitted.incrementAndGet() > config.maxInFlight()) {
            admitted.decrementAndGet();
            FetchException busy = Failures.rateLimited(Urls.canonical(request.url()),
                    "the fetcher already has " + config.maxInFlight() + " fetches in flight");
            counters.failed(busy.reason());
            return CompletableFuture.failedFuture(busy);
        }
        Fetch fetch = new Fetch(HttpMethod.valueOf(request.method()), request.headers(), config, pools, limiter,
                counters, clock, addresses);
        inFlight.add(fetch);
        ScheduledFuture<?> deadline = ioGroup.schedule(fetch::deadlinePassed, config.deadline().toNanos(), TimeUnit.NANOSECONDS);
        CompletableFuture<OriginResponse> out = fetch.result().whenComplete((response, error) -> {
            deadline.cancel(false);
            inFlight.remove(fetch);
            admitted.decrementAndGet();
            if (error == null) {
                counters.succeeded(response.body().length);
            } else {
                counters.failed(Exchange.unwrap(error).reason());
            }
        });
        fetch.start(Urls.canonical(request.url()));
        // close() may have run after the check above and before the fetch was registered.
        if (closed) {
            fetch.fetcherClosed();
        }
        return out;
    }

    private FetchException refusal(OriginRequest request) {
        URI url = request.url();
        if (!request.method().equals("GET") && !request.method().equals("HEAD")) {
            return Failures.invalid(url, "asks for method " + request.method() + "; the origin fetcher only sends GET and HEAD");
        }
        String problem = Urls.problem(url);
        if (problem == null) {
            problem = OutgoingHeaders.problem(request.headers());
        }
        if (problem != null) {
            return Failures.invalid(url, problem);
        }
        if (addresses != null) {
            FetchException forbidden = addresses.literalRefusal(url);
            if (forbidden != null) {
                return forbidden;
            }
        }
        return closed ? Failures.closed(Urls.canonical(url)) : null;
    }

    /** A snapshot of the counters. */
    public OriginFetcherMetrics metrics() {
        return counters.snapshot(inFlight.size());
    }

    /** The limits this fetcher enforces. */
    public OriginFetcherConfig config() {
        return config;
    }

    /** Fails every fetch in flight as CLOSED and closes every connection; later fetches fail as CLOSED. */
    @Override
    public void close() {
        closed = true;
        for (Fetch f : inFlight) {
            f.fetcherClosed();
        }
        pools.close();
    }
}
