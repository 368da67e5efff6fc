package io.riptide.core.wire;

import io.netty.buffer.ByteBuf;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads message fields, checking every length against what is left in the frame and against the
 * field's own limit, so a hostile peer can make a read fail but never make it allocate more than the
 * frame it already sent.
 */
public final class WireReader {
    /**
     * How deep messages may nest (a routed hop carrying a locate carrying a client read is 3). Each
     * level costs a peer a few bytes but costs the decoder stack frames, so without a bound one frame
     * of nested headers could overflow the I/O thread's stack.
     */
    public static final int MAX_NESTING = 8;
    /** Longest host of an {@code addr} field, in UTF-8 bytes (a DNS name's limit). */
    public static final int MAX_HOST_BYTES = 255;

    private final ByteBuf in;
    private final int depth;
    private final int version;

    /** A reader of fields written at this build's newest wire version ({@link Frames#VERSION}). */
    public WireReader(ByteBuf in) {
        this(in, 0, Frames.VERSION);
    }

    WireReader(ByteBuf in, int depth, int version) {
        this.in = in;
        this.depth = depth;
        this.version = version;
    }

    /**
     * The wire version the fields were written at: the link's, negotiated in its handshake. A decoder
     * reads a field new in version v only when this is at least v.
     */
    public int version() {
        return version;
    }

    /** Reads one field of a message. */
    @FunctionalInterface
    public interface Element<T> {
        T read(WireReader reader) throws WireException;
    }

    private void need(int bytes, String what) throws WireException {
        if (bytes < 0 || in.readableBytes() < bytes) {
            throw new WireException("truncated " + what + ": need " + bytes + " bytes, have " + in.readableBytes());
        }
    }

    public int u8() throws WireException {
        need(1, "u8");
        return in.readUnsignedByte();
    }

    public boolean bool() throws WireException {
        int b = u8();
        if (b > 1) {
            throw new WireException("bad boolean " + b);
        }
        return b == 1;
    }

    public int u16() throws WireException {
        need(2, "u16");
        return in.readUnsignedShort();
    }

    public int i32() throws WireException {
        need(4, "i32");
        return in.readInt();
    }

    /** An i32 that must lie in [min, max]. */
    public int i32(int min, int max, String what) throws WireException {
        int v = i32();
        if (v < min || v > max) {
            throw new WireException(what + " out of range: " + v);
        }
        return v;
    }

    public long i64() throws WireException {
        need(8, "i64");
        return in.readLong();
    }

    public Id id() throws WireException {
        need(Id.BYTES, "id");
        return Id.fromWords(in.readLong(), in.readLong(), in.readInt());
    }

    /** Length-prefixed bytes of at most {@code maxLength}. */
    public byte[] bytes(int maxLength) throws WireException {
        int length = i32();
        if (length < 0 || length > maxLength) {
            throw new WireException("byte field of " + length + " bytes exceeds limit " + maxLength);
        }
        need(length, "bytes");
        byte[] out = new byte[length];
        in.readBytes(out);
        return out;
    }

    /** Length-prefixed UTF-8 text of at most {@code maxBytes}. */
    public String string(int maxBytes) throws WireException {
        int length = u16();
        if (length > maxBytes) {
            throw new WireException("string of " + length + " bytes exceeds limit " + maxBytes);
        }
        need(length, "string");
        String s = in.toString(in.readerIndex(), length, StandardCharsets.UTF_8);
        in.skipBytes(length);
        return s;
    }

    public NodeAddress address() throws WireException {
        String host = string(MAX_HOST_BYTES);
        int port = i32();
        try {
            return new NodeAddress(host, port);
        } catch (IllegalArgumentException e) {
            throw new WireException("bad address: " + e.getMessage());
        }
    }

    public NodeHandle handle() throws WireException {
        return new NodeHandle(id(), address());
    }

    /** A u16-counted list of at most {@code maxItems}. */
    public <T> List<T> list(int maxItems, Element<T> element) throws WireException {
        int count = u16();
        if (count > maxItems) {
            throw new WireException("list of " + count + " items exceeds limit " + maxItems);
        }
        List<T> out = new ArrayList<>(Math.min(count, in.readableBytes()));
        for (int i = 0; i < count; i++) {
            out.add(element.read(this));
        }
        return out;
    }

    /** A nested message written by {@link WireWriter#message}. */
    public WireMessage message(MessageCodec codec) throws WireException {
        if (depth >= MAX_NESTING) {
            throw new WireException("messages nested more than " + MAX_NESTING + " deep");
        }
        int length = i32();
        need(length, "nested message");
        ByteBuf slice = in.readSlice(length);
        return codec.decodeBody(slice, depth + 1, version);
    }

    /** Fails unless the whole input was consumed: trailing bytes mean a malformed message. */
    public void end() throws WireException {
        if (in.isReadable()) {
            throw new WireException(in.readableBytes() + " unexpected trailing bytes");
        }
    }
}
