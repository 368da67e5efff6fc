package io.riptide.dolr.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.MaxMessagesRecvByteBufAllocator;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.util.UncheckedBooleanSupplier;

/**
 * Sizes a connection's socket reads: at most {@code cap} bytes each until the peer has proved its key
 * ({@link #lift}), then as the channel's own allocator would. With the frame decoder's handshake cap
 * this bounds what an unauthenticated peer makes the node hold to about two caps, where the adaptive
 * allocator alone would grow a read to 64 KiB as soon as reads come back full.
 */
final class BoundedReads implements MaxMessagesRecvByteBufAllocator {
    private final MaxMessagesRecvByteBufAllocator inner;
    private final int cap;
    /** Read and written on the channel's loop only. */
    private boolean lifted;

    private BoundedReads(MaxMessagesRecvByteBufAllocator inner, int cap) {
        this.inner = inner;
        this.cap = cap;
    }

    /**
     * Bounds {@code ch}'s reads to {@code cap} bytes until {@link #lift}. Call before the channel's
     * first read (in its initializer): Netty asks the allocator for a handle once, at that read.
     */
    static BoundedReads install(Channel ch, int cap) {
        // Netty's socket channels start with the adaptive allocator, which counts messages per read.
        BoundedReads reads = new BoundedReads((MaxMessagesRecvByteBufAllocator) ch.config().getRecvByteBufAllocator(), cap);
        ch.config().setRecvByteBufAllocator(reads);
        return reads;
    }

    /** The peer has proved its key: reads are sized as the channel's own allocator sizes them. */
    void lift() {
        lifted = true;
    }

    @Override
    public Handle newHandle() {
        // Epoll channels need an extended handle; the adaptive allocator's is one.
        return new Bounded((ExtendedHandle) inner.newHandle());
    }

    @Override
    public int maxMessagesPerRead() {
        return inner.maxMessagesPerRead();
    }

    @Override
    public MaxMessagesRecvByteBufAllocator maxMessagesPerRead(int maxMessagesPerRead) {
        inner.maxMessagesPerRead(maxMessagesPerRead);
        return this;
    }

    private final class Bounded extends DelegatingHandle implements ExtendedHandle {
        Bounded(ExtendedHandle delegate) {
            super(delegate);
        }

        @Override
        public ByteBuf allocate(ByteBufAllocator alloc) {
            return lifted ? super.allocate(alloc) : alloc.ioBuffer(guess());
        }

        @Override
        public int guess() {
            return lifted ? super.guess() : Math.min(super.guess(), cap);
        }

        @Override
        public boolean continueReading(UncheckedBooleanSupplier maybeMoreDataSupplier) {
            return ((ExtendedHandle) delegate()).continueReading(maybeMoreDataSupplier);
        }
    }
}
