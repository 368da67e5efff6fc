package io.riptide.benchmarks.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.riptide.core.wire.Frames;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireException;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.DolrCodec;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/** Encoding a message into a pooled frame and decoding one back, for a small, a nested and a large message. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class FrameBenchmark {
    private static final long SEED = 20_240_604L;
    // Frames.decode starts after the u32 length, which the transport's frame decoder has consumed.
    private static final int LENGTH_FIELD_BYTES = Frames.HEADER_BYTES - 1;

    /** Which sample message (see {@link SampleMessages#named}). */
    @Param({"hopAck", "routedLocate", "joinState"})
    public String message;

    private MessageCodec codec;
    private WireMessage sample;
    private ByteBuf frame;

    @Setup(Level.Trial)
    public void setUp() throws WireException {
        codec = DolrCodec.create();
        sample = SampleMessages.named(message, SEED);
        frame = Frames.encode(codec, sample, PooledByteBufAllocator.DEFAULT);
        // Fail fast rather than time a codec that does not round-trip.
        frame.readerIndex(LENGTH_FIELD_BYTES);
        WireMessage decoded = Frames.decode(codec, frame);
        if (!decoded.equals(sample)) {
            throw new IllegalStateException("round trip changed the message: " + sample + " -> " + decoded);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (!frame.release()) {
            throw new IllegalStateException("pre-encoded frame still referenced: refCnt " + frame.refCnt());
        }
    }

    /** Allocate a pooled buffer, write the frame, release it (the transport releases after the write). */
    @Benchmark
    public int encode() {
        ByteBuf out = Frames.encode(codec, sample, PooledByteBufAllocator.DEFAULT);
        try {
            return out.readableBytes();
        } finally {
            out.release();
        }
    }

    /**
     * Decode the pre-encoded frame. Rewinding the reader index instead of taking a retained duplicate
     * keeps reference counting out of the figure: only parsing and building the records is timed.
     */
    @Benchmark
    public WireMessage decode() throws WireException {
        frame.readerIndex(LENGTH_FIELD_BYTES);
        return Frames.decode(codec, frame);
    }
}
