package io.riptide.dolr.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.riptide.core.runtime.NodeAddress;
import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The way out to one peer: frames wait here while the connection opens and proves the peer's key,
 * then go straight to its channel. Any thread may {@link #offer}; everything else runs on the
 * link's event loop, which is also its channel's, so the queue and channel need no locks.
 *
 * <p>Bytes are counted from offer until the socket took them; past the bound a frame is dropped.
 */
final class PeerLink {
    private final NodeAddress address;
    private final EventLoop loop;
    private final long maxPendingBytes;
    private final TransportCounters counters;
    private final AtomicLong pendingBytes = new AtomicLong();
    private final ArrayDeque<ByteBuf> waiting = new ArrayDeque<>();
    private Channel channel;
    private volatile boolean closed;
    private volatile boolean wasReady;

    PeerLink(NodeAddress address, EventLoop loop, long maxPendingBytes, TransportCounters counters) {
        this.address = address;
        this.loop = loop;
        this.maxPendingBytes = maxPendingBytes;
        this.counters = counters;
    }

    NodeAddress address() {
        return address;
    }

    EventLoop loop() {
        return loop;
    }

    /** Bytes offered and not yet taken by the socket (or dropped). */
    long pendingBytes() {
        return pendingBytes.get();
    }

    /** Whether the link ever had an authenticated channel (a link that never did failed to connect). */
    boolean wasReady() {
        return wasReady;
    }

    /** Queues or writes {@code frame}, taking ownership of it. Never blocks. */
    void offer(ByteBuf frame) {
        int size = frame.readableBytes();
        if (closed) {
            drop(frame);
            return;
        }
        if (pendingBytes.addAndGet(size) > maxPendingBytes) {
            pendingBytes.addAndGet(-size);
            drop(frame);
            return;
        }
        try {
            loop.execute(() -> deliver(frame));
        } catch (RejectedExecutionException e) {
            pendingBytes.addAndGet(-size);
            drop(frame);
        }
    }

    private void deliver(ByteBuf frame) {
        if (closed) {
            pendingBytes.addAndGet(-frame.readableBytes());
            drop(frame);
        } else if (channel == null) {
            waiting.add(frame);
        } else {
            write(frame);
        }
    }

    private void write(ByteBuf frame) {
        int size = frame.readableBytes();
        if (!channel.isWritable()) {
            // The peer isn't reading: dropping is what a best-effort network does.
            pendingBytes.addAndGet(-size);
            drop(frame);
            return;
        }
        channel.writeAndFlush(frame).addListener(f -> {
            pendingBytes.addAndGet(-size);
            if (f.isSuccess()) {
                counters.messageSent();
            } else {
                counters.messageDropped();
            }
        });
    }

    /** On the loop: the peer proved its key on {@code authenticated}; send what waited. */
    void ready(Channel authenticated) {
        assert loop.inEventLoop();
        if (closed) {
            return;
        }
        channel = authenticated;
        wasReady = true;
        while (!waiting.isEmpty()) {
            write(waiting.poll());
        }
    }

    /** Whether {@link #close} was called (by a retirement, or the transport closing). */
    boolean isClosed() {
        return closed;
    }

    /** Stops the link and drops what waits; later offers are dropped. Any thread, idempotent. */
    void close() {
        closed = true;
        if (loop.inEventLoop()) {
            dropWaiting();
        } else {
            try {
                loop.execute(this::dropWaiting);
            } catch (RejectedExecutionException e) {
                // The loop is gone; it ran its remaining tasks, and nothing can be added any more.
            }
        }
    }

    private void dropWaiting() {
        ByteBuf frame;
        while ((frame = waiting.poll()) != null) {
            pendingBytes.addAndGet(-frame.readableBytes());
            drop(frame);
        }
    }

    private void drop(ByteBuf frame) {
        frame.release();
        counters.messageDropped();
    }
}
