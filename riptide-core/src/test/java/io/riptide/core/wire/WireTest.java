package io.riptide.core.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.UnpooledHeapByteBuf;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** WireWriter, WireReader, MessageCodec and Frames: round trips, and every bound a hostile peer could test. */
class WireTest {
    /** A message with one of every field kind. */
    record Hello(Id id, String name, NodeHandle from, List<Id> neighbours, long time, boolean ok, int flags) implements WireMessage {
        Hello {
            if (name.isEmpty()) {
                throw new IllegalArgumentException("name must not be empty");
            }
            neighbours = List.copyOf(neighbours);
        }
    }

    /** A message carrying another message. */
    record Envelope(int hops, WireMessage inner) implements WireMessage {
    }

    /** A message with a raw byte field (records compare arrays by identity, hence the wrapper). */
    record Blob(List<Byte> data) implements WireMessage {
        static Blob of(byte[] bytes) {
            List<Byte> l = new ArrayList<>();
            for (byte b : bytes) {
                l.add(b);
            }
            return new Blob(l);
        }

        byte[] bytes() {
            byte[] b = new byte[data.size()];
            for (int i = 0; i < b.length; i++) {
                b[i] = data.get(i);
            }
            return b;
        }
    }

    /** A type no codec here knows. */
    record Stranger() implements WireMessage {
    }

    private static final int HELLO = 1;
    private static final int ENVELOPE = 2;
    private static final int BLOB = 3;

    private final MessageCodec codec = codec();
    private final List<ByteBuf> buffers = new ArrayList<>();

    private MessageCodec codec() {
        MessageCodec c = new MessageCodec();
        c.register(HELLO, Hello.class,
                (m, out) -> out.id(m.id()).string(m.name()).handle(m.from()).list(m.neighbours(), WireWriter::id)
                        .i64(m.time()).bool(m.ok()).u8(m.flags()),
                in -> new Hello(in.id(), in.string(64), in.handle(), in.list(8, WireReader::id), in.i64(), in.bool(), in.u8()));
        c.register(ENVELOPE, Envelope.class,
                (m, out) -> out.u16(m.hops()).message(c, m.inner()),
                in -> new Envelope(in.u16(), in.message(c)));
        c.register(BLOB, Blob.class,
                (m, out) -> out.bytes(m.bytes()),
                in -> Blob.of(in.bytes(32)));
        return c;
    }

    @AfterEach
    void releaseBuffers() {
        for (ByteBuf b : buffers) {
            if (b.refCnt() > 0) {
                b.release();
            }
        }
    }

    /** A leak-tracked buffer released after the test. */
    private ByteBuf buffer() {
        ByteBuf b = PooledByteBufAllocator.DEFAULT.buffer();
        buffers.add(b);
        return b;
    }

    private ByteBuf bytes(int... values) {
        ByteBuf b = buffer();
        for (int v : values) {
            b.writeByte(v);
        }
        return b;
    }

    /** Runs {@code action} and insists it fails with a WireException and nothing else. */
    private static WireException assertWire(WireAction action) {
        try {
            action.run();
        } catch (WireException e) {
            return e;
        } catch (Throwable t) {
            throw new AssertionError("expected WireException, got " + t, t);
        }
        return fail("expected WireException, nothing thrown");
    }

    @FunctionalInterface
    private interface WireAction {
        void run() throws Exception;
    }

    private static Hello hello() {
        return new Hello(Id.hash("a"), "node-a ✓", new NodeHandle(Id.hash("b"), new NodeAddress("10.0.0.1", 4000)),
                List.of(Id.hash("c"), Id.ZERO), -5L, true, 255);
    }

    private ByteBuf body(WireMessage m) {
        ByteBuf b = buffer();
        codec.encodeBody(m, b);
        return b;
    }

    @Test
    void everyFieldKindRoundTrips() throws WireException {
        ByteBuf b = buffer();
        NodeHandle h = new NodeHandle(Id.hash("h"), NodeAddress.simulated(70_000));
        new WireWriter(b).u8(200).bool(false).u16(65535).i32(-7).i64(Long.MIN_VALUE).id(Id.hash("x"))
                .bytes(new byte[] {1, 2, 3}).string("héllo").address(new NodeAddress("::1", 9)).handle(h)
                .list(List.of("a", "bb"), WireWriter::string);
        WireReader r = new WireReader(b);
        assertEquals(200, r.u8());
        assertFalse(r.bool());
        assertEquals(65535, r.u16());
        assertEquals(-7, r.i32(-10, 10, "small"));
        assertEquals(Long.MIN_VALUE, r.i64());
        assertEquals(Id.hash("x"), r.id());
        assertArrayEquals(new byte[] {1, 2, 3}, r.bytes(3));
        assertEquals("héllo", r.string(6));
        assertEquals(new NodeAddress("::1", 9), r.address());
        assertEquals(h, r.handle());
        assertEquals(List.of("a", "bb"), r.list(2, in -> in.string(2)));
        r.end();
    }

    @Test
    void messagesRoundTripThroughBodiesAndFrames() throws WireException {
        List<WireMessage> messages = List.of(
                hello(),
                new Envelope(3, hello()),
                new Envelope(0, new Envelope(1, Blob.of(new byte[] {9, 8}))),
                Blob.of(new byte[0]),
                Blob.of(new byte[32]));
        for (WireMessage m : messages) {
            assertEquals(m, codec.decodeBody(body(m)));
            ByteBuf frame = Frames.encode(codec, m, PooledByteBufAllocator.DEFAULT);
            buffers.add(frame);
            assertEquals(frame.readableBytes() - 4, frame.getInt(0), "length counts version and body");
            assertEquals(Frames.VERSION, frame.getUnsignedByte(4));
            frame.skipBytes(4);
            assertEquals(m, Frames.decode(codec, frame));
            assertFalse(frame.isReadable());
        }
    }

    @Test
    void nestingUpToTheLimitDecodesAndOneLevelMoreIsRefused() throws WireException {
        WireMessage deepest = Blob.of(new byte[] {1});
        for (int i = 0; i < WireReader.MAX_NESTING; i++) {
            deepest = new Envelope(i, deepest);
        }
        assertEquals(deepest, codec.decodeBody(body(deepest)));
        WireMessage tooDeep = new Envelope(99, deepest);
        ByteBuf b = body(tooDeep);
        assertTrue(assertWire(() -> codec.decodeBody(b)).getMessage().contains("nested more than"));
    }

    @Test
    void aFrameOfEndlesslyNestedHeadersIsRefusedWithoutExhaustingTheStack() {
        // 200,000 envelopes in 1.6 MB, built inside out as a hostile peer would write them: decoding
        // them one level per stack frame would overflow the thread's stack long before the end.
        ByteBuf b = buffer();
        int levels = 200_000;
        int innermost = 2 + 4 + 1;
        b.ensureWritable(levels * 8 + innermost);
        for (int i = 0; i < levels; i++) {
            b.writeShort(ENVELOPE).writeShort(0).writeInt(8 * (levels - 1 - i) + innermost);
        }
        b.writeShort(BLOB).writeInt(1).writeByte(7);
        assertTrue(assertWire(() -> codec.decodeBody(b)).getMessage().contains("nested more than"));
    }

    @Test
    void truncatedFieldsAreRefused() {
        assertWire(() -> new WireReader(bytes()).u8());
        assertWire(() -> new WireReader(bytes(1)).u16());
        assertWire(() -> new WireReader(bytes(1, 2, 3)).i32());
        assertWire(() -> new WireReader(bytes(1, 2, 3, 4, 5, 6, 7)).i64());
        assertWire(() -> new WireReader(bytes(new int[Id.BYTES - 1])).id());
        assertWire(() -> new WireReader(bytes(0, 0, 0, 4, 1, 2, 3)).bytes(10));
        assertWire(() -> new WireReader(bytes(0, 3, 'a', 'b')).string(10));
        assertWire(() -> new WireReader(bytes(0, 2, 0, 1, 'a')).list(5, in -> in.string(5)));
        assertWire(() -> new WireReader(bytes(0, 1, 'a', 0, 0)).address());
    }

    @Test
    void everyTruncationOfAValidBodyIsRefused() {
        for (WireMessage m : List.of(hello(), new Envelope(2, hello()), Blob.of(new byte[] {1, 2, 3}))) {
            ByteBuf full = body(m);
            for (int n = 0; n < full.readableBytes(); n++) {
                ByteBuf cut = full.retainedSlice(0, n);
                buffers.add(cut);
                assertWire(() -> codec.decodeBody(cut));
            }
        }
    }

    @Test
    void oversizedLengthPrefixesAreRefusedBeforeAllocating() {
        assertWire(() -> new WireReader(bytes(0x7f, 0xff, 0xff, 0xff)).bytes(1 << 20));
        assertWire(() -> new WireReader(bytes(0, 0, 0, 33)).bytes(32));
        assertWire(() -> new WireReader(bytes(0xff, 0xff, 0xff, 0xff)).bytes(32)); // negative
        assertWire(() -> new WireReader(bytes(0, 11)).string(10));
        assertWire(() -> new WireReader(bytes(0x7f, 0xff, 0xff, 0xff)).message(codec));
        assertWire(() -> new WireReader(bytes(0xff, 0xff, 0xff, 0xfe)).message(codec));
        assertTrue(assertWire(() -> new WireReader(bytes(0, 11)).string(10)).getMessage().contains("exceeds limit"));
    }

    @Test
    void listCountsOverTheLimitAreRefused() {
        WireException e = assertWire(() -> new WireReader(bytes(0xff, 0xff)).list(8, WireReader::id));
        assertTrue(e.getMessage().contains("exceeds limit"), e.getMessage());
        Hello tooMany = new Hello(Id.ZERO, "n", hello().from(), java.util.Collections.nCopies(9, Id.ZERO), 0, false, 0);
        assertWire(() -> codec.decodeBody(body(tooMany)));
    }

    @Test
    void badValuesAreRefused() {
        assertWire(() -> new WireReader(bytes(2)).bool());
        assertWire(() -> new WireReader(bytes(0, 0, 0, 11)).i32(0, 10, "hops"));
        assertWire(() -> new WireReader(bytes(0, 0)).i32(0, 10, "hops"));
        // Empty host and negative port: NodeAddress refuses; the reader reports it as bad input.
        assertWire(() -> new WireReader(bytes(0, 0, 0, 0, 0, 1)).address());
        assertWire(() -> new WireReader(bytes(0, 1, 'h', 0xff, 0xff, 0xff, 0xff)).address());
        // A record that refuses its decoded fields.
        Hello valid = hello();
        ByteBuf b = buffer();
        b.writeShort(HELLO);
        new WireWriter(b).id(valid.id()).string("").handle(valid.from()).list(List.<Id>of(), WireWriter::id).i64(0).bool(true).u8(0);
        assertTrue(assertWire(() -> codec.decodeBody(b)).getMessage().contains("invalid Hello"));
    }

    @Test
    void unknownTypeTagsAreRefused() {
        assertTrue(assertWire(() -> codec.decodeBody(bytes(0x12, 0x34))).getMessage().contains("unknown message type"));
        ByteBuf nested = buffer();
        nested.writeShort(ENVELOPE).writeShort(1).writeInt(2).writeShort(999);
        assertWire(() -> codec.decodeBody(nested));
    }

    @Test
    void trailingBytesAreRefused() {
        ByteBuf b = body(hello());
        b.writeByte(0);
        assertTrue(assertWire(() -> codec.decodeBody(b)).getMessage().contains("trailing"));
        // Inside a nested message too: its declared length covers a byte its body does not use.
        ByteBuf inner = body(Blob.of(new byte[] {1}));
        ByteBuf outer = buffer();
        outer.writeShort(ENVELOPE).writeShort(0).writeInt(inner.readableBytes() + 1).writeBytes(inner).writeByte(7);
        assertWire(() -> codec.decodeBody(outer));
        assertWire(() -> new WireReader(bytes(1)).end());
    }

    @Test
    void framesWithTheWrongVersionOrNoContentAreRefused() {
        assertTrue(assertWire(() -> Frames.decode(codec, bytes())).getMessage().contains("empty"));
        ByteBuf wrong = buffer();
        wrong.writeByte(Frames.VERSION + 1);
        codec.encodeBody(hello(), wrong);
        assertTrue(assertWire(() -> Frames.decode(codec, wrong)).getMessage().contains("version"));
    }

    @Test
    void randomCorruptionNeverThrowsAnythingButWireException() {
        SplittableRandom random = new SplittableRandom(4242);
        List<WireMessage> messages = List.of(hello(), new Envelope(1, hello()), Blob.of(new byte[] {1, 2, 3, 4}));
        for (int i = 0; i < 5000; i++) {
            ByteBuf original = body(messages.get(random.nextInt(messages.size())));
            ByteBuf mutated = buffer().writeBytes(original);
            int flips = 1 + random.nextInt(4);
            for (int f = 0; f < flips; f++) {
                int at = random.nextInt(mutated.writerIndex());
                mutated.setByte(at, random.nextInt(256));
            }
            if (random.nextBoolean()) {
                mutated.writerIndex(random.nextInt(mutated.writerIndex() + 1));
            }
            try {
                codec.decodeBody(mutated);
            } catch (WireException expected) {
                // Refused cleanly.
            } catch (RuntimeException e) {
                throw new AssertionError("corrupt input escaped as " + e, e);
            }
            // Release as we go: 5000 pooled buffers would sit in the pool until the test ends.
            buffers.remove(original);
            buffers.remove(mutated);
            original.release();
            mutated.release();
        }
    }

    @Test
    void registrationIsUniqueByTagAndByType() {
        MessageCodec c = new MessageCodec();
        c.register(7, Blob.class, (m, out) -> { }, in -> Blob.of(new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> c.register(7, Stranger.class, (m, out) -> { }, in -> new Stranger()));
        assertThrows(IllegalArgumentException.class, () -> c.register(8, Blob.class, (m, out) -> { }, in -> Blob.of(new byte[0])));
        assertThrows(IllegalArgumentException.class, () -> c.register(-1, Stranger.class, (m, out) -> { }, in -> new Stranger()));
        assertThrows(IllegalArgumentException.class, () -> c.register(0x10000, Stranger.class, (m, out) -> { }, in -> new Stranger()));
        assertTrue(c.knows(Blob.class));
        assertFalse(c.knows(Stranger.class));
    }

    @Test
    void encodingAnUnknownTypeFailsAndFramesReleaseTheirBuffer() {
        List<ByteBuf> allocated = new ArrayList<>();
        AbstractByteBufAllocator recording = new AbstractByteBufAllocator(false) {
            @Override
            protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
                ByteBuf b = new UnpooledHeapByteBuf(this, initialCapacity, maxCapacity);
                allocated.add(b);
                return b;
            }

            @Override
            protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
                return newHeapBuffer(initialCapacity, maxCapacity);
            }

            @Override
            public boolean isDirectBufferPooled() {
                return false;
            }
        };
        assertThrows(IllegalArgumentException.class, () -> Frames.encode(codec, new Stranger(), recording));
        assertEquals(1, allocated.size());
        assertEquals(0, allocated.get(0).refCnt(), "the half-written frame was released");
    }

    @Test
    void writersRefuseWhatTheWireCannotCarry() {
        ByteBuf b = buffer();
        assertThrows(IllegalArgumentException.class, () -> new WireWriter(b).string("x".repeat(0x10000)));
        assertThrows(IllegalArgumentException.class,
                () -> new WireWriter(b).list(java.util.Collections.nCopies(0x10000, 0), WireWriter::i32));
    }
}
