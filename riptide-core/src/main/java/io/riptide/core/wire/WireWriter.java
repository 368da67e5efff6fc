package io.riptide.core.wire;

import io.netty.buffer.ByteBuf;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.function.BiConsumer;

/** Writes message fields to a buffer in the wire format that {@link WireReader} reads back. */
public final class WireWriter {
    private final ByteBuf out;
    private final int version;

    /** A writer at this build's newest wire version ({@link Frames#VERSION}). */
    public WireWriter(ByteBuf out) {
        this(out, Frames.VERSION);
    }

    WireWriter(ByteBuf out, int version) {
        this.out = out;
        this.version = version;
    }

    /**
     * The wire version being written: the link's, negotiated in its handshake. An encoder writes a
     * field new in version v only when this is at least v, since a peer of an older version could
     * not read it.
     */
    public int version() {
        return version;
    }

    public WireWriter u8(int value) {
        out.writeByte(value);
        return this;
    }

    public WireWriter bool(boolean value) {
        out.writeByte(value ? 1 : 0);
        return this;
    }

    public WireWriter u16(int value) {
        out.writeShort(value);
        return this;
    }

    public WireWriter i32(int value) {
        out.writeInt(value);
        return this;
    }

    public WireWriter i64(long value) {
        out.writeLong(value);
        return this;
    }

    public WireWriter id(Id id) {
        out.writeLong(id.hi()).writeLong(id.mid()).writeInt(id.lo());
        return this;
    }

    /** Length-prefixed (u32) bytes. */
    public WireWriter bytes(byte[] value) {
        out.writeInt(value.length).writeBytes(value);
        return this;
    }

    /** Length-prefixed (u16) UTF-8 text. */
    public WireWriter string(String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        if (utf8.length > 0xffff) {
            throw new IllegalArgumentException("string too long for the wire: " + utf8.length + " bytes");
        }
        out.writeShort(utf8.length).writeBytes(utf8);
        return this;
    }

    public WireWriter address(NodeAddress address) {
        return string(address.host()).i32(address.port());
    }

    public WireWriter handle(NodeHandle handle) {
        return id(handle.id()).address(handle.address());
    }

    /** A u16 count followed by each element. */
    public <T> WireWriter list(Collection<T> items, BiConsumer<WireWriter, T> element) {
        if (items.size() > 0xffff) {
            throw new IllegalArgumentException("list too long for the wire: " + items.size());
        }
        out.writeShort(items.size());
        for (T item : items) {
            element.accept(this, item);
        }
        return this;
    }

    /** A nested message, written with its type tag and length so readers can bound it. */
    public WireWriter message(MessageCodec codec, WireMessage message) {
        int lengthAt = out.writerIndex();
        out.writeInt(0);
        codec.encodeBody(message, out, version);
        out.setInt(lengthAt, out.writerIndex() - lengthAt - 4);
        return this;
    }
}
