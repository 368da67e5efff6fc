package io.riptide.proxy.upstream;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.channel.pool.ChannelPool;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import io.riptide.proxy.ProxyStats.Side;
import io.riptide.proxy.framing.Framing;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * One request relayed to its origin over a pooled keep-alive connection: the request head and body
 * chunks go up as they arrive, the response head and chunks come back to the {@link Listener} as
 * they arrive. Runs entirely on the browser connection's event loop (the pool is that loop's), so
 * it needs no locks. A handler of its own ({@link Attachment}) is added to the origin connection's
 * pipeline for the exchange only, a new one per connection: a retry on a fresh connection after the
 * origin closed a reused one must not add the same (non-sharable) handler twice, which Netty refuses.
 * A response whose framing is ambiguous ({@link Framing}) fails the exchange with a 502 and closes
 * its connection: the rest of what the origin sent on it cannot be trusted to belong to this
 * response, and the connection is shared with other browsers through the pool. Before it takes a
 * connection an exchange is admitted by the origin's {@link OriginQueue}, which may shed it instead
 * (a 503 with {@code Retry-After}) when the origin's connections are all busy and the queue for them
 * has stood too long.
 */
public final class OriginExchange {
    /** Hears the exchange's progress; called on the event loop. */
    public interface Listener {
        /** The origin's final response head (interim 1xx responses are dropped). */
        void responseHead(HttpResponse head);

        /** A piece of the response body; the listener owns it. The last one is a {@link LastHttpContent}. */
        void responseContent(HttpContent content);

        /** The origin connection read what it had: a good moment to flush the browser's socket. */
        void responseReadComplete();

        /** The response ended; the origin connection is back in its pool (or closed). */
        void responseComplete(int status);

        /** The exchange failed; whether the head was passed on already is the listener's to know. */
        void failed(UpstreamFailure failure);

        /** The origin connection stopped (false) or resumed (true) taking request body bytes. */
        void requestBodyWritable(boolean writable);
    }

    private static final String NAME = "exchange";

    private final UpstreamClient client;
    private final EventLoop loop;
    private final Origin origin;
    private final HttpRequest head;
    private final Listener listener;
    private final ArrayDeque<HttpContent> unsent = new ArrayDeque<>();

    private ChannelPool pool;
    private OriginQueue queue;
    private final Waiting waiting = new Waiting();
    /** Whether this exchange holds one of the origin's slots, to give back when it finishes. */
    private boolean admitted;
    private Channel ch;
    /** The handler on {@link #ch}'s pipeline, or null. */
    private Attachment attachment;
    private io.netty.util.concurrent.ScheduledFuture<?> timer;
    private boolean reused;
    private boolean retried;
    private boolean lastSent;
    private long bodyBytesSent;
    private boolean headSeen;
    private boolean skippingInterim;
    private boolean keepAlive;
    private boolean finished;
    private int status;

    /** An exchange of {@code head} (origin-form, hop-by-hop fields already removed) with {@code origin}. */
    public OriginExchange(UpstreamClient client, EventLoop loop, Origin origin, HttpRequest head, Listener listener) {
        this.client = client;
        this.loop = loop;
        this.origin = origin;
        this.head = head;
        this.listener = listener;
    }

    /** Waits its turn for the origin, gets a connection and sends the head (and whatever body has arrived). */
    public void start() {
        try {
            pool = client.pool(loop, origin);
            queue = client.queue(loop, origin);
        } catch (IllegalStateException closed) {
            fail(new UpstreamFailure(502, "the proxy is shutting down"));
            return;
        }
        queue.enter(waiting);
    }

    /** This exchange's place in its origin's queue. */
    private final class Waiting implements OriginQueue.Waiter {
        /** Whether the queue has decided (admitted or shed): then it no longer holds this waiter. */
        boolean decided;

        @Override
        public void admitted() {
            decided = true;
            admitted = true;
            if (finished) {
                // Cannot happen (a finished exchange leaves the queue), but a slot must never leak.
                release();
                return;
            }
            client.acquire(pool, loop).addListener((Future<Channel> f) -> acquired(f));
        }

        @Override
        public void shed(long waitedNanos, long limitNanos) {
            decided = true;
            fail(Failures.busy(origin, client.config(), waitedNanos, limitNanos));
        }
    }

    /** Gives this exchange's slot back (the next waiter may get it), or its place in the queue if it had no slot yet. */
    private void release() {
        if (queue == null) {
            return;
        }
        if (admitted) {
            admitted = false;
            queue.leave(waiting);
        } else if (!waiting.decided) {
            queue.cancel(waiting);
        }
    }

    private void acquired(Future<Channel> f) {
        if (!f.isSuccess()) {
            fail(Failures.connect(origin, f.cause(), client.config()));
            return;
        }
        Channel c = f.getNow();
        if (finished) {
            // The browser left while we waited for the connection.
            pool.release(c);
            return;
        }
        boolean pooled = Boolean.TRUE.equals(c.attr(UpstreamConnections.POOLED).get());
        if (retried && pooled) {
            // The retry must go on a new connection: another kept one may be just as closed by now. An
            // idle kept connection dropped here costs a handshake at most.
            c.close();
            pool.release(c);
            client.acquire(pool, loop).addListener((Future<Channel> next) -> acquired(next));
            return;
        }
        ch = c;
        reused = pooled;
        attachment = new Attachment(c);
        c.pipeline().addBefore(UpstreamConnections.GUARD, NAME, attachment);
        c.write(head, c.voidPromise());
        if (retried) {
            // Only bodiless requests are retried, so the body to replay is empty.
            c.write(LastHttpContent.EMPTY_LAST_CONTENT, c.voidPromise());
            lastSent = true;
        }
        for (HttpContent chunk; (chunk = unsent.poll()) != null; ) {
            send(chunk);
        }
        c.flush();
        timer = loop.schedule(this::timedOut, client.config().responseTimeout().toNanos(), TimeUnit.NANOSECONDS);
    }

    /** A piece of the request body (owned by the exchange from here on). */
    public void body(HttpContent chunk) {
        if (finished) {
            chunk.release();
        } else if (ch == null) {
            unsent.add(chunk);
        } else {
            send(chunk);
            ch.flush();
            if (!ch.isWritable()) {
                listener.requestBodyWritable(false);
            }
        }
    }

    private void send(HttpContent chunk) {
        bodyBytesSent += chunk.content().readableBytes();
        if (chunk instanceof LastHttpContent) {
            lastSent = true;
        }
        ch.write(chunk, ch.voidPromise());
    }

    /** Stops reading the response: the browser's socket is full. */
    public void pause() {
        if (ch != null && !finished) {
            ch.config().setAutoRead(false);
        }
    }

    /** Reads the response again: the browser's socket drained. */
    public void resume() {
        if (ch != null && !finished) {
            ch.config().setAutoRead(true);
        }
    }

    /** The browser went away: drop the origin connection (it is mid-exchange, so not reusable). */
    public void abort() {
        if (!finished) {
            finish(false);
        }
    }

    /** Relays one connection's events to its exchange, and none once the exchange has left that connection. */
    private final class Attachment extends ChannelInboundHandlerAdapter {
        private final Channel channel;

        Attachment(Channel channel) {
            this.channel = channel;
        }

        private boolean current() {
            return ch == channel;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (current()) {
                read(msg);
            } else {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            if (current() && !finished) {
                listener.responseReadComplete();
            }
            ctx.fireChannelReadComplete();
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (current() && !finished) {
                listener.requestBodyWritable(ctx.channel().isWritable());
            }
            ctx.fireChannelWritabilityChanged();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (current() && !finished) {
                failOnConnection(null);
            }
            ctx.fireChannelInactive();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (current() && !finished) {
                failOnConnection(cause);
            } else {
                ctx.close();
            }
        }
    }

    private void read(Object msg) {
        if (finished) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof HttpObject o && o.decoderResult().isFailure()) {
            ReferenceCountUtil.release(msg);
            fail(Failures.malformed(origin, o.decoderResult().cause()));
            return;
        }
        if (msg instanceof HttpResponse response) {
            if (response.status().codeClass() == HttpStatusClass.INFORMATIONAL) {
                // 100 Continue and 103 Early Hints: the browser gets the final response only.
                skippingInterim = true;
                ReferenceCountUtil.release(msg);
                return;
            }
            Framing framing = Framing.of(response);
            if (framing instanceof Framing.Faulty faulty) {
                ReferenceCountUtil.release(msg);
                client.stats().framingRefused(Side.RESPONSE);
                fail(Failures.framing(origin, faulty));
                return;
            }
            // The browser gets the framing the codec read the response by, and no other.
            Framing.normalize(response.headers(), framing);
            headSeen = true;
            cancelTimer();
            status = response.status().code();
            keepAlive = HttpUtil.isKeepAlive(response);
            listener.responseHead(response);
            return;
        }
        if (msg instanceof HttpContent chunk) {
            if (skippingInterim) {
                skippingInterim = !(chunk instanceof LastHttpContent);
                chunk.release();
                return;
            }
            boolean last = chunk instanceof LastHttpContent;
            listener.responseContent(chunk);
            if (last) {
                // Reusable only if both sides of the exchange ended cleanly.
                finish(keepAlive && lastSent);
                listener.responseComplete(status);
            }
            return;
        }
        ReferenceCountUtil.release(msg);
    }

    private void failOnConnection(Throwable cause) {
        // A keep-alive connection the origin closed as we reused it: safe to retry once on a fresh
        // connection, because nothing was answered and the request had no body.
        if (reused && !retried && !headSeen && lastSent && bodyBytesSent == 0) {
            retried = true;
            detach(false);
            lastSent = false;
            reused = false;
            client.acquire(pool, loop).addListener((Future<Channel> f) -> acquired(f));
            return;
        }
        fail(cause == null ? Failures.closed(origin, headSeen) : Failures.onConnection(origin, cause, headSeen));
    }

    private void timedOut() {
        if (!finished && !headSeen) {
            fail(Failures.timeout(origin, client.config().responseTimeout()));
        }
    }

    private void fail(UpstreamFailure failure) {
        if (finished) {
            return;
        }
        finish(false);
        listener.failed(failure);
    }

    private void finish(boolean reusable) {
        finished = true;
        for (HttpContent chunk; (chunk = unsent.poll()) != null; ) {
            chunk.release();
        }
        detach(reusable);
        // After the connection went back to the pool, so the next waiter admitted finds it there.
        release();
    }

    private void detach(boolean reusable) {
        cancelTimer();
        Channel c = ch;
        Attachment a = attachment;
        ch = null;
        attachment = null;
        if (c == null) {
            return;
        }
        if (a != null && c.pipeline().context(a) != null) {
            c.pipeline().remove(a);
        }
        c.config().setAutoRead(true);
        if (!reusable) {
            c.close();
        }
        // Always released, closed or not, so the pool's count of connections in use stays true.
        pool.release(c);
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }
}
