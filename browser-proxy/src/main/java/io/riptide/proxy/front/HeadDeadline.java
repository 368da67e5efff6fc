package io.riptide.proxy.front;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.ScheduledFuture;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The request-head deadline of one browser connection ({@code --request-head-timeout}): a head must be
 * complete within the timeout of the first read that began it, however steadily its bytes trickle in
 * (the idle timeout alone lets a client that sends a byte a minute hold a connection for ever). Seen
 * from after the codec: a read between requests that decoded nothing began a head; the head's
 * arrival ends the wait. Between requests nothing runs, so an idle keep-alive connection is the idle
 * timeout's business. A head begun in the same read as the previous request's last bytes is timed from
 * its next read. Inside an intercepted CONNECT nothing is timed until the TLS handshake is done: its
 * reads decode no request, and a browser may open such a connection ahead of need and leave it idle.
 * Runs on the connection's event loop.
 */
final class HeadDeadline {
    private final ChannelHandlerContext ctx;
    private final long timeoutNanos;
    private final Runnable expired;
    private ScheduledFuture<?> timer;
    /** Between a request's head and its last content: reads carry its body, not a head. */
    private boolean inRequest;
    private boolean decodedThisRead;
    /** Reads are TLS handshake records, not a head, until the handshake is done. */
    private boolean handshaking;

    /** {@code expired} runs on the event loop when a head is late; {@code tls}: time nothing until {@link #handshakeDone()}. */
    HeadDeadline(ChannelHandlerContext ctx, Duration timeout, boolean tls, Runnable expired) {
        this.ctx = ctx;
        this.timeoutNanos = timeout.toNanos();
        this.handshaking = tls;
        this.expired = expired;
    }

    /** The connection's TLS handshake ended: reads from the next one on may begin a head. */
    void handshakeDone() {
        handshaking = false;
        // The read that finished the handshake carried no head.
        decodedThisRead = true;
    }

    /** The codec decoded {@code message}. */
    void decoded(HttpObject message) {
        decodedThisRead = true;
        if (message instanceof HttpRequest) {
            cancel();
            inRequest = true;
        }
        // Not else: a request the decoder could not parse comes as a whole message, head and end in one.
        if (message instanceof LastHttpContent) {
            inRequest = false;
        }
    }

    /** A read from the socket ended. */
    void readComplete() {
        if (!handshaking && !inRequest && !decodedThisRead && timer == null) {
            timer = ctx.executor().schedule(this::fire, timeoutNanos, TimeUnit.NANOSECONDS);
        }
        decodedThisRead = false;
    }

    /** Times the head again from now: the connection was busy answering when the deadline came. */
    void restart() {
        cancel();
        timer = ctx.executor().schedule(this::fire, timeoutNanos, TimeUnit.NANOSECONDS);
    }

    void cancel() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    private void fire() {
        timer = null;
        expired.run();
    }
}
