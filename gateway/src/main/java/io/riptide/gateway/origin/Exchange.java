package io.riptide.gateway.origin;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.pool.ChannelPool;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Future;
import java.net.URI;
import java.time.Clock;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * One request and its answer on a pooled connection: acquire, wait for TLS, send, collect, and hand
 * the connection back (kept if the origin allows keep-alive and the answer was read cleanly,
 * otherwise closed). A reused connection that the origin had already closed is retried once on a
 * fresh one; GET and HEAD are safe to repeat.
 */
final class Exchange {
    private static final String COLLECTOR = "collect";

    private final ChannelPool pool;
    private final URI url;
    private final HttpMethod method;
    private final HttpHeaders headers;
    private final Clock clock;
    private final int maxBodyBytes;
    private final CompletableFuture<Received> result = new CompletableFuture<>();
    private volatile boolean aborted;
    private volatile Channel channel;
    private boolean retried;

    Exchange(ChannelPool pool, URI url, HttpMethod method, HttpHeaders headers, Clock clock, int maxBodyBytes) {
        this.pool = pool;
        this.url = url;
        this.method = method;
        this.headers = headers;
        this.clock = clock;
        this.maxBodyBytes = maxBodyBytes;
    }

    /** Starts the exchange; the result completes with the answer or a {@link FetchException}. */
    CompletableFuture<Received> start() {
        attempt();
        return result;
    }

    /** Ends the exchange with {@code why} and closes its connection, if it has one. */
    void abort(FetchException why) {
        aborted = true;
        result.completeExceptionally(why);
        Channel ch = channel;
        if (ch != null) {
            ch.close();
        }
    }

    private void attempt() {
        pool.acquire().addListener((Future<Channel> f) -> {
            if (!f.isSuccess()) {
                result.completeExceptionally(acquireFailure(f.cause()));
                return;
            }
            Channel ch = f.getNow();
            channel = ch;
            // Read after publishing the channel, so an abort in between either sees it or is seen here.
            if (aborted) {
                closeAndRelease(ch);
                return;
            }
            boolean reused = Boolean.TRUE.equals(ch.attr(OriginConnections.POOLED).get());
            ch.eventLoop().execute(() -> afterHandshake(ch, reused));
        });
    }

    private FetchException acquireFailure(Throwable cause) {
        if (cause instanceof IllegalStateException && String.valueOf(cause.getMessage()).contains("outstanding acquire")) {
            return Failures.rateLimited(url, "too many fetches are already waiting for a connection to this origin");
        }
        if (cause instanceof IllegalStateException && String.valueOf(cause.getMessage()).contains("closed")) {
            return Failures.closed(url);
        }
        return Failures.connect(url, cause);
    }

    private void afterHandshake(Channel ch, boolean reused) {
        SslHandler tls = ch.pipeline().get(SslHandler.class);
        if (tls == null) {
            send(ch, reused);
            return;
        }
        tls.handshakeFuture().addListener(h -> {
            if (h.isSuccess()) {
                send(ch, reused);
            } else {
                result.completeExceptionally(Failures.tls(url, h.cause()));
                closeAndRelease(ch);
            }
        });
    }

    private void send(Channel ch, boolean reused) {
        if (aborted) {
            closeAndRelease(ch);
            return;
        }
        if (!ch.isActive() || ch.pipeline().get(OriginConnections.COLLECTOR_BEFORE) == null) {
            // The origin closed a kept connection between the pool's handing it out and this send (its
            // pipeline may be torn down already): the same stale connection as a send that reads
            // nothing back, so the same single retry on a fresh one.
            closeAndRelease(ch);
            if (reused && !retried) {
                retried = true;
                attempt();
            } else {
                result.completeExceptionally(Failures.truncated(url, false));
            }
            return;
        }
        ResponseCollector collector = new ResponseCollector(url, method, clock, maxBodyBytes);
        collector.result().whenComplete((r, e) -> done(ch, collector, reused, r, e));
        ch.pipeline().addBefore(OriginConnections.COLLECTOR_BEFORE, COLLECTOR, collector);
        if (collector.result().isDone()) {
            return;
        }
        collector.requestSent(clock.millis());
        DefaultFullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, method, Urls.target(url),
                Unpooled.EMPTY_BUFFER, new DefaultHttpHeaders().set(headers), new DefaultHttpHeaders());
        ch.writeAndFlush(request).addListener(w -> {
            if (!w.isSuccess()) {
                collector.fail(w.cause());
            }
        });
    }

    /** Runs on the connection's loop once the collector is done, whichever way. */
    private void done(Channel ch, ResponseCollector collector, boolean reused, Received received, Throwable error) {
        if (ch.pipeline().context(collector) != null) {
            ch.pipeline().remove(collector);
        }
        if (error == null && received.keepAlive() && !aborted) {
            pool.release(ch);
        } else {
            closeAndRelease(ch);
        }
        if (error == null) {
            result.complete(received);
            return;
        }
        FetchException failure = unwrap(error);
        boolean stale = reused && !collector.anythingRead() && failure.reason() == FetchException.Reason.TRUNCATED;
        if (stale && !retried && !aborted) {
            retried = true;
            attempt();
            return;
        }
        result.completeExceptionally(failure);
    }

    private void closeAndRelease(Channel ch) {
        ch.close();
        pool.release(ch);
    }

    static FetchException unwrap(Throwable t) {
        Throwable c = t instanceof CompletionException && t.getCause() != null ? t.getCause() : t;
        return c instanceof FetchException fe ? fe
                : new FetchException(FetchException.Reason.MALFORMED_RESPONSE, null, "unexpected failure: " + c, c);
    }
}
