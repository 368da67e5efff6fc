package io.riptide.dolr.transport;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledHeapByteBuf;
import java.util.ArrayList;
import java.util.List;

/** An allocator that remembers every buffer it made, so a test can check that all were released. */
final class TrackingAllocator extends AbstractByteBufAllocator {
    private final List<ByteBuf> made = new ArrayList<>();

    TrackingAllocator() {
        super(false);
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        ByteBuf buf = new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity);
        made.add(buf);
        return buf;
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        return newHeapBuffer(initialCapacity, maxCapacity);
    }

    @Override
    public boolean isDirectBufferPooled() {
        return false;
    }

    /** Buffers made and not yet released. */
    long outstanding() {
        return made.stream().filter(b -> b.refCnt() > 0).count();
    }

    /** Forgets released buffers, keeping the list short across many cases. */
    void forgetReleased() {
        made.removeIf(b -> b.refCnt() == 0);
    }
}
