package io.riptide.dolr.transport;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.EventLoop;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.wire.WireMessage;
import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The way out to one peer: frames wait here while the connection opens and proves the peer's key,
 * then go straight to its channel. Any thread may {@link #offer}; everything else runs on the
 * link's event loop, which is also its channel's, so the queue and channel need no locks.
 *
 * <p>Bytes are counted from offer until the socket took them; past the bound a frame is dropped.
 *
 * <p>A frame is encoded when offered, at the link's wire version if the handshake has agreed it, else
 * at the newest this node speaks; one that waited for a handshake that agreed another version is
 * encoded again before it is written, so the peer gets every frame at the link's version.
 */
final class PeerLink {
    private final NodeAddress address;
    private final EventLoop loop;
    private final long maxPendingBytes;
    private final TransportCounters counters;
    private final LinkEncoder encoder;
    private final AtomicLong pendingBytes = new AtomicLong();
    private final ArrayDeque<Outgoing> waiting = new ArrayDeque<>();
    private Channel channel;
    private volatile boolean closed;
    private volatile boolean wasReady;
    /** The newest version this node speaks until the handshake agreed the link's. */
    private volatile int version;

    /** A message and its frame, encoded at the version its first byte after the length names. */
    private record Outgoing(WireMessage message, ByteBuf frame) {
        int version() {
            return frame.getUnsignedByte(frame.readerIndex() + 4);
        }
    }

    PeerLink(NodeAddress address, EventLoop loop, long maxPendingBytes, TransportCounters counters, LinkEncoder encoder,
            int newestVersion) {
        this.address = address;
        this.loop = loop;
        this.maxPendingBytes = maxPendingBytes;
        this.counters = counters;
        this.encoder = encoder;
        this.version = newestVersion;
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

    /** The wire version agreed in the link's handshake; before it, the version frames are encoded at. */
    int version() {
        return version;
    }

    /** Whether the link ever had an authenticated channel (a link that never did failed to connect). */
    boolean wasReady() {
        return wasReady;
    }

    /** Queues or writes {@code frame}, {@code message} framed, taking ownership of it. Never blocks. */
    void offer(WireMessage message, ByteBuf frame) {
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
        Outgoing out = new Outgoing(message, frame);
        try {
            loop.execute(() -> deliver(out));
        } catch (RejectedExecutionException e) {
            pendingBytes.addAndGet(-size);
            drop(frame);
        }
    }

    private void deliver(Outgoing out) {
        if (closed) {
            pendingBytes.addAndGet(-out.frame().readableBytes());
            drop(out.frame());
        } else if (channel == null) {
            waiting.add(out);
        } else {
            write(out);
        }
    }

    private void write(Outgoing out) {
        ByteBuf frame = out.frame();
        if (out.version() != version) {
            ByteBuf again = encoder.encode(out.message(), version);
            pendingBytes.addAndGet(again.readableBytes() - frame.readableBytes());
            frame.release();
            frame = again;
        }
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

    /** On the loop: the peer proved its key on {@code authenticated}, agreeing {@code version}; send what waited. */
    void ready(Channel authenticated, int agreed) {
        assert loop.inEventLoop();
        if (closed) {
            return;
        }
        version = agreed;
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
        Outgoing out;
        while ((out = waiting.poll()) != null) {
            pendingBytes.addAndGet(-out.frame().readableBytes());
            drop(out.frame());
        }
    }

    private void drop(ByteBuf frame) {
        frame.release();
        counters.messageDropped();
    }
}
