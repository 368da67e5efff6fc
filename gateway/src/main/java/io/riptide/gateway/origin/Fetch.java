package io.riptide.gateway.origin;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.riptide.core.http.Headers;
import java.net.URI;
import java.time.Clock;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * One call of {@link OriginFetcher#fetch}: exchanges with origins hop by hop, following redirects,
 * until an answer that isn't a redirect, a failure, the deadline, or the fetcher closing.
 */
final class Fetch {
    private final HttpMethod method;
    private final Headers headers;
    private final OriginFetcherConfig config;
    private final OriginPools pools;
    private final HostRateLimiter limiter;
    private final FetchCounters counters;
    private final Clock clock;
    /** Null when private origins are allowed. */
    private final AddressPolicy addresses;
    private final CompletableFuture<OriginResponse> result = new CompletableFuture<>();
    /** Touched by one hop at a time; each hop starts after the previous one completed. */
    private final Set<URI> visited = new HashSet<>();
    private int redirects;
    private volatile URI currentUrl;
    private volatile Exchange current;

    Fetch(HttpMethod method, Headers headers, OriginFetcherConfig config, OriginPools pools, HostRateLimiter limiter,
            FetchCounters counters, Clock clock, AddressPolicy addresses) {
        this.method = method;
        this.headers = headers;
        this.config = config;
        this.pools = pools;
        this.limiter = limiter;
        this.counters = counters;
        this.clock = clock;
        this.addresses = addresses;
    }

    CompletableFuture<OriginResponse> result() {
        return result;
    }

    /** Starts at {@code url}, which must be canonical (see {@link Urls#canonical}). */
    void start(URI url) {
        visited.add(url);
        hop(url);
    }

    /** Ends the fetch as TIMEOUT, closing the connection in use. */
    void deadlinePassed() {
        abort(Failures.timeout(currentUrl, config.deadline()));
    }

    /** Ends the fetch as CLOSED, closing the connection in use. */
    void fetcherClosed() {
        abort(Failures.closed(currentUrl));
    }

    private void abort(FetchException why) {
        if (result.completeExceptionally(why)) {
            Exchange ex = current;
            if (ex != null) {
                ex.abort(why);
            }
        }
    }

    private void hop(URI url) {
        currentUrl = url;
        OriginKey key = OriginKey.of(url);
        if (!limiter.tryAcquire(key.host())) {
            result.completeExceptionally(Failures.rateLimited(url, "the fetch rate limit for " + key.host()
                    + " (" + config.fetchesPerSecondPerHost() + "/s, burst " + config.burstPerHost() + ") is used up"));
            return;
        }
        Exchange ex = new Exchange(pools.pool(key), url, method, OutgoingHeaders.build(key, headers, config.userAgent()),
                clock, config.maxBodyBytes());
        current = ex;
        // The deadline or close may have struck before this exchange was published; it would not be aborted.
        if (result.isDone()) {
            return;
        }
        ex.start().whenComplete((answer, error) -> {
            if (error != null) {
                result.completeExceptionally(Exchange.unwrap(error));
            } else {
                answered(url, answer);
            }
        });
    }

    private void answered(URI url, Received answer) {
        Optional<String> location = answer.headers().first(HttpHeaderNames.LOCATION.toString());
        if (Statuses.redirect(answer.status()) && location.isPresent()) {
            URI next;
            try {
                next = Redirects.next(url, location.get(), visited, redirects, config.maxRedirects());
                FetchException forbidden = addresses == null ? null : addresses.literalRefusal(next);
                if (forbidden != null) {
                    throw forbidden; // a name is checked once resolved, at the hop's connect
                }
            } catch (FetchException e) {
                result.completeExceptionally(e);
                return;
            }
            redirects++;
            counters.redirect();
            hop(next);
            return;
        }
        result.complete(new OriginResponse(url, answer.status(), answer.reason(), answer.headers(), answer.body(),
                answer.requestTimeMillis(), answer.responseTimeMillis(), redirects));
    }
}
