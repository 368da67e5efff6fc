package io.riptide.core.wire;

import io.netty.buffer.ByteBuf;
import java.util.HashMap;
import java.util.Map;

/**
 * Maps message types to their wire form. A message body is a u16 type tag followed by the fields
 * its {@link Encoder} writes; a frame (see {@link Frames}) wraps a body with a length and the wire
 * version.
 *
 * <p>Each protocol registers its own messages under its own tag range, so the codec is built once per
 * node at start-up and then only read.
 */
public final class MessageCodec {
    /** Writes one message type's fields. */
    @FunctionalInterface
    public interface Encoder<T extends WireMessage> {
        void encode(T message, WireWriter out);
    }

    /** Reads one message type's fields. */
    @FunctionalInterface
    public interface Decoder<T extends WireMessage> {
        T decode(WireReader in) throws WireException;
    }

    private record Entry<T extends WireMessage>(int tag, Class<T> type, Encoder<T> encoder, Decoder<T> decoder) {
        void encode(WireMessage message, WireWriter out) {
            encoder.encode(type.cast(message), out);
        }
    }

    private final Map<Integer, Entry<?>> byTag = new HashMap<>();
    private final Map<Class<?>, Entry<?>> byType = new HashMap<>();

    /** Registers a message type under {@code tag} (0..65535, unique in this codec). */
    public <T extends WireMessage> MessageCodec register(int tag, Class<T> type, Encoder<T> encoder, Decoder<T> decoder) {
        if (tag < 0 || tag > 0xffff) {
            throw new IllegalArgumentException("tag out of range: " + tag);
        }
        if (byTag.containsKey(tag) || byType.containsKey(type)) {
            throw new IllegalArgumentException("tag " + tag + " or type " + type.getSimpleName() + " registered twice");
        }
        Entry<T> entry = new Entry<>(tag, type, encoder, decoder);
        byTag.put(tag, entry);
        byType.put(type, entry);
        return this;
    }

    /** Whether {@code type} can be encoded. */
    public boolean knows(Class<? extends WireMessage> type) {
        return byType.containsKey(type);
    }

    /** Writes the type tag and fields of {@code message} at the newest wire version. */
    public void encodeBody(WireMessage message, ByteBuf out) {
        encodeBody(message, out, Frames.VERSION);
    }

    /** Writes the type tag and fields of {@code message} as wire version {@code version} has them. */
    public void encodeBody(WireMessage message, ByteBuf out, int version) {
        Entry<?> entry = byType.get(message.getClass());
        if (entry == null) {
            throw new IllegalArgumentException("no codec for " + message.getClass().getName());
        }
        out.writeShort(entry.tag());
        entry.encode(message, new WireWriter(out, version));
    }

    /** Reads a body written by {@link #encodeBody} at the newest wire version; all of {@code in} must be consumed. */
    public WireMessage decodeBody(ByteBuf in) throws WireException {
        return decodeBody(in, 0, Frames.VERSION);
    }

    /** Reads a body written at wire version {@code version}; all of {@code in} must be consumed. */
    public WireMessage decodeBody(ByteBuf in, int version) throws WireException {
        return decodeBody(in, 0, version);
    }

    /** Reads a body nested {@code depth} messages deep inside another. */
    WireMessage decodeBody(ByteBuf in, int depth, int version) throws WireException {
        WireReader reader = new WireReader(in, depth, version);
        int tag = reader.u16();
        Entry<?> entry = byTag.get(tag);
        if (entry == null) {
            throw new WireException("unknown message type " + tag);
        }
        WireMessage message;
        try {
            message = entry.decoder().decode(reader);
        } catch (IllegalArgumentException e) {
            // A record's own validation refused the decoded fields.
            throw new WireException("invalid " + entry.type().getSimpleName() + ": " + e.getMessage());
        }
        reader.end();
        return message;
    }
}
