package io.riptide.core.store;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.WebObject;
import io.riptide.core.wire.WireException;
import io.riptide.core.wire.WireReader;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * Everything of a replica's stored bytes but its body: the bytes before the body ({@code prefix}),
 * the bytes after it ({@code suffix}), and the body's SHA-256 and length. {@code prefix | body |
 * suffix} is the replica exactly as it was put. It is the content store's object record, and what a
 * node sends first in a digest-first transfer: the reader skips the body when it holds one with the
 * digest.
 *
 * <p>For a {@link CachedCopy} (what the gateway stores) the body is the web object's body, so the
 * prefix holds the formats, the certificate and its signature, and the suffix the heartbeat; the
 * split finds the body by walking the certificate's fields, without checking them (checking is the
 * verifier's job, and any split reassembles exactly). Any other replica (a variant record, the
 * simulator's byte arrays) is all body and no head, so identical replicas are still stored once.
 *
 * <p>Record layout: {@code u8 type (1) | u8 format (1) | 32 bytes body SHA-256 | i32 body length |
 * i32 prefix length | prefix | suffix (the rest)}.
 */
public final class ReplicaHead {
    /** First byte of an object record. */
    static final int TYPE = 1;
    /** Version of the layout. */
    static final int FORMAT = 1;
    /** Bytes in a SHA-256 digest. */
    public static final int DIGEST_BYTES = 32;
    private static final int FIXED_BYTES = 2 + DIGEST_BYTES + 4 + 4;
    /** Leads the bytes hashed into a body record's key, so no body key is a GUID. */
    private static final byte[] BODY_KEY_DOMAIN = "riptide/content-store/body".getBytes(java.nio.charset.StandardCharsets.UTF_8);

    private final byte[] digest;
    private final int bodyLength;
    private final byte[] prefix;
    private final byte[] suffix;

    private ReplicaHead(byte[] digest, int bodyLength, byte[] prefix, byte[] suffix) {
        this.digest = digest;
        this.bodyLength = bodyLength;
        this.prefix = prefix;
        this.suffix = suffix;
    }

    /** A replica split into head and body. */
    public record Split(ReplicaHead head, ByteBuffer body) {
    }

    /**
     * Splits {@code replica} into its head and body (a view of {@code replica}), computing the body's
     * digest here: a digest is never taken from anyone.
     */
    public static Split split(byte[] replica) {
        int[] range = bodyRange(replica);
        int start = range[0];
        int length = range[1];
        byte[] digest = sha256(replica, start, length);
        byte[] prefix = Arrays.copyOfRange(replica, 0, start);
        byte[] suffix = Arrays.copyOfRange(replica, start + length, replica.length);
        return new Split(new ReplicaHead(digest, length, prefix, suffix),
                ByteBuffer.wrap(replica, start, length).slice().asReadOnlyBuffer());
    }

    /**
     * Where the body lies in {@code replica}: {@code {offset, length}}; the web object's body for a
     * cached copy, else all of it. Layouts: {@link CachedCopy#toBytes()}, {@link WebObject#toBytes()}.
     */
    static int[] bodyRange(byte[] replica) {
        ByteBuf buf = Unpooled.wrappedBuffer(replica);
        try {
            WireReader in = new WireReader(buf);
            if (in.u8() != CachedCopy.FORMAT) {
                return new int[] {0, replica.length};
            }
            int objectLength = in.i32();
            int objectStart = buf.readerIndex();
            if (objectLength < 0 || objectLength > replica.length - objectStart || in.u8() != WebObject.FORMAT) {
                return new int[] {0, replica.length};
            }
            // The certificate's fields (ObjectCertificate.writeFields), then its signature.
            in.bytes(32);
            in.id();
            in.string(0xffff);
            in.string(0xffff);
            in.i64();
            in.bytes(DIGEST_BYTES);
            in.u16();
            in.string(0xffff);
            in.list(0xffff, r -> {
                r.string(0xffff);
                return r.string(0xffff);
            });
            in.i64();
            in.i64();
            in.i64();
            in.bytes(64);
            int bodyLength = in.i32();
            int bodyStart = buf.readerIndex();
            if (bodyLength < 0 || (long) bodyStart + bodyLength != (long) objectStart + objectLength) {
                return new int[] {0, replica.length};
            }
            return new int[] {bodyStart, bodyLength};
        } catch (WireException | IndexOutOfBoundsException e) {
            return new int[] {0, replica.length};
        } finally {
            buf.release();
        }
    }

    /** The replica: prefix, {@code body}, suffix. {@code body} must be this head's body (same length). */
    public byte[] assemble(ByteBuffer body) {
        if (body.remaining() != bodyLength) {
            throw new IllegalArgumentException("body is " + body.remaining() + " bytes, the head says " + bodyLength);
        }
        byte[] out = new byte[prefix.length + bodyLength + suffix.length];
        ByteBuffer.wrap(out).put(prefix).put(body.duplicate()).put(suffix);
        return out;
    }

    /** The object record (layout in the class comment). */
    public byte[] toBytes() {
        ByteBuffer out = ByteBuffer.allocate(FIXED_BYTES + prefix.length + suffix.length);
        out.put((byte) TYPE).put((byte) FORMAT).put(digest).putInt(bodyLength).putInt(prefix.length).put(prefix).put(suffix);
        return out.array();
    }

    /** Reads an object record; null if {@code record} is not one (another type, format or a bad length). */
    public static ReplicaHead fromBytes(byte[] record) {
        if (record == null || record.length < FIXED_BYTES || record[0] != TYPE || record[1] != FORMAT) {
            return null;
        }
        ByteBuffer in = ByteBuffer.wrap(record, 2, record.length - 2);
        byte[] digest = new byte[DIGEST_BYTES];
        in.get(digest);
        int bodyLength = in.getInt();
        int prefixLength = in.getInt();
        if (bodyLength < 0 || prefixLength < 0 || prefixLength > in.remaining()) {
            return null;
        }
        byte[] prefix = new byte[prefixLength];
        in.get(prefix);
        byte[] suffix = new byte[in.remaining()];
        in.get(suffix);
        return new ReplicaHead(digest, bodyLength, prefix, suffix);
    }

    /** The body's SHA-256 (a copy). */
    public byte[] digest() {
        return digest.clone();
    }

    public int bodyLength() {
        return bodyLength;
    }

    /** The replica's length once assembled. */
    public long replicaLength() {
        return (long) prefix.length + bodyLength + suffix.length;
    }

    /** The key of the body record of the body whose SHA-256 is {@code digest}. */
    public static Id bodyKey(byte[] digest) {
        if (digest.length != DIGEST_BYTES) {
            throw new IllegalArgumentException("a body digest is " + DIGEST_BYTES + " bytes, got " + digest.length);
        }
        return Id.hash(BODY_KEY_DOMAIN, digest);
    }

    /** The key of this head's body record. */
    public Id bodyKey() {
        return bodyKey(digest);
    }

    /** SHA-256 of {@code length} bytes of {@code data} from {@code offset}. */
    public static byte[] sha256(byte[] data, int offset, int length) {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
        md.update(data, offset, length);
        return md.digest();
    }

    /** SHA-256 of the remaining bytes of {@code data} (its position is not moved). */
    public static byte[] sha256(ByteBuffer data) {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
        md.update(data.duplicate());
        return md.digest();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReplicaHead h && bodyLength == h.bodyLength && Arrays.equals(digest, h.digest)
                && Arrays.equals(prefix, h.prefix) && Arrays.equals(suffix, h.suffix);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(digest) * 31 + bodyLength;
    }

    @Override
    public String toString() {
        return "ReplicaHead[body sha256 " + HexFormat.of().formatHex(digest, 0, 4) + "…, " + bodyLength
                + " body bytes, " + prefix.length + "+" + suffix.length + " head bytes]";
    }
}
