package io.riptide.core.object;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.riptide.core.crypto.PublicKey;
import io.riptide.core.http.Headers;
import io.riptide.core.wire.WireException;
import io.riptide.core.wire.WireReader;
import io.riptide.core.wire.WireWriter;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.function.Consumer;

/** The byte-level pieces the object formats share: buffers, fixed-length fields, text checks, SHA-256. */
final class Encoding {
    /** Bytes in a SHA-256 digest. */
    static final int SHA256_BYTES = 32;
    /** Longest text field: the wire's u16 string length. */
    static final int MAX_TEXT_BYTES = 0xffff;

    private Encoding() {
    }

    /** What {@code body} writes, as a fresh array. */
    static byte[] write(int sizeHint, Consumer<WireWriter> body) {
        ByteBuf out = Unpooled.buffer(sizeHint);
        try {
            body.accept(new WireWriter(out));
            return ByteBufUtil.getBytes(out);
        } finally {
            out.release();
        }
    }

    /** Reads one value that must fill {@code data} exactly. */
    interface Reader<T> {
        T read(WireReader in) throws WireException;
    }

    /**
     * Reads {@code data} with {@code reader}, turning every way the input can be wrong into one
     * checked exception: a short or oversized field (WireException), or a value a record refused
     * (IllegalArgumentException, which is also how a 32-byte key that is not a curve point fails).
     */
    static <T> T read(byte[] data, String what, Reader<T> reader) throws ObjectFormatException {
        ByteBuf in = Unpooled.wrappedBuffer(data);
        try {
            WireReader wire = new WireReader(in);
            T value = reader.read(wire);
            wire.end();
            return value;
        } catch (WireException | IllegalArgumentException e) {
            throw new ObjectFormatException("malformed " + what + ": " + e.getMessage());
        } finally {
            in.release();
        }
    }

    /** A length-prefixed field that must be exactly {@code length} bytes. */
    static byte[] fixed(WireReader in, int length, String what) throws WireException {
        byte[] value = in.bytes(length);
        if (value.length != length) {
            throw new WireException(what + " is " + value.length + " bytes, expected " + length);
        }
        return value;
    }

    static PublicKey publicKey(WireReader in) throws WireException {
        return PublicKey.fromBytes(fixed(in, PublicKey.BYTES, "provider key"));
    }

    /** The format byte, refused unless it is {@code expected}. */
    static void formatVersion(WireReader in, int expected, String what) throws WireException {
        int version = in.u8();
        if (version != expected) {
            throw new WireException("unsupported " + what + " format " + version + " (expected " + expected + ")");
        }
    }

    /**
     * Refuses text that could not be signed byte for byte: longer than a wire string, or not valid
     * UTF-8 (a lone surrogate would be written as '?' and read back as a different string).
     */
    static String checkText(String value, String what) {
        if (value == null) {
            throw new IllegalArgumentException(what + " is missing");
        }
        int bytes;
        try {
            bytes = StandardCharsets.UTF_8.newEncoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .encode(CharBuffer.wrap(value))
                    .remaining();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException(what + " is not valid Unicode text");
        }
        if (bytes > MAX_TEXT_BYTES) {
            throw new IllegalArgumentException(what + " is " + bytes + " bytes, limit " + MAX_TEXT_BYTES);
        }
        return value;
    }

    /** Refuses headers that could not be written as a wire list of signable text. */
    static Headers checkHeaders(Headers headers) {
        if (headers == null) {
            throw new IllegalArgumentException("headers are missing");
        }
        if (headers.size() > ObjectCertificate.MAX_HEADER_FIELDS) {
            throw new IllegalArgumentException(headers.size() + " header fields, limit "
                    + ObjectCertificate.MAX_HEADER_FIELDS);
        }
        for (Headers.Field field : headers.fields()) {
            checkText(field.name(), "header name");
            checkText(field.value(), "header value");
        }
        return headers;
    }

    /** A defensive copy of a byte array that must be exactly {@code length} long. */
    static byte[] copyExact(byte[] value, int length, String what) {
        if (value == null || value.length != length) {
            throw new IllegalArgumentException(what + " must be " + length + " bytes, got "
                    + (value == null ? "none" : value.length));
        }
        return value.clone();
    }

    /** SHA-256 of the remaining bytes of {@code data} (its position is not moved). */
    static byte[] sha256(ByteBuffer data) {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
        digest.update(data.duplicate());
        return digest.digest();
    }
}
