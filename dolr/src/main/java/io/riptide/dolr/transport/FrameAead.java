package io.riptide.dolr.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.riptide.core.wire.Frames;
import java.security.GeneralSecurityException;
import javax.crypto.AEADBadTagException;
import javax.crypto.Cipher;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * One direction of a link's encryption: each frame's body sealed with AES-256-GCM under that
 * direction's key ({@link LinkKeys}), and the frame's length and version authenticated with it. A
 * sealed frame is {@code u32 length | u8 version | encrypted body | 16-byte tag}.
 *
 * <p>The 96-bit nonce is a frame counter, starting at zero (four zero bytes, then the count,
 * big-endian), and it is never sent: the sender counts the frames it seals and the receiver those it
 * opens, so a frame replayed, reordered, left out or reflected back is opened under another nonce
 * than it was sealed with and fails authentication, as a tampered one does. Each direction has its
 * own key, so the two counters never meet under one key.
 *
 * <p>A key seals at most {@link #DEFAULT_BYTE_LIMIT} bytes (then {@link #exhausted}): AES-GCM's
 * confidentiality bound stays below 2^-60 up to there.
 *
 * <p>The JDK's AES-GCM runs on the processor's AES and carry-less multiply instructions: measured on
 * this project's machine, it sealed 10-100 KB frames at about 3 GB/s, ten times the JDK's or Bouncy
 * Castle's ChaCha20-Poly1305 and forty times Bouncy Castle's AES-GCM. One instance per direction of
 * one channel, used on its event loop only.
 */
final class FrameAead {
    /** Bytes the tag adds to a frame. */
    static final int TAG_BYTES = 16;
    /** Bytes one key may seal: 2^38 (256 GiB), 2^34 blocks of AES. */
    static final long DEFAULT_BYTE_LIMIT = 1L << 38;
    private static final String TRANSFORMATION = "AES/GCM/NoPadding";
    private static final int NONCE_BYTES = 12;
    private static final int COUNTER_OFFSET = NONCE_BYTES - Long.BYTES;

    private final Cipher cipher;
    private final SecretKeySpec key;
    private final long byteLimit;
    /** The frame's length and version, authenticated with its body. */
    private final byte[] header = new byte[Frames.HEADER_BYTES];
    private final byte[] nonce = new byte[NONCE_BYTES];
    private long frames;
    private long bytes;

    /** One direction under {@code key} (32 bytes). */
    FrameAead(byte[] key) {
        this(key, DEFAULT_BYTE_LIMIT);
    }

    /** As above, exhausted after {@code byteLimit} bytes (tests use a small one). */
    FrameAead(byte[] key, long byteLimit) {
        if (key.length != LinkKeys.KEY_BYTES) {
            throw new IllegalArgumentException("a key is " + LinkKeys.KEY_BYTES + " bytes");
        }
        try {
            this.cipher = Cipher.getInstance(TRANSFORMATION);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("every JVM has " + TRANSFORMATION, e);
        }
        this.key = new SecretKeySpec(key, "AES");
        this.byteLimit = byteLimit;
    }

    /** Whether this key has sealed as much as it may; a frame sealed now would go past the limit. */
    boolean exhausted() {
        return bytes >= byteLimit;
    }

    /**
     * {@code frame} ({@code u32 length | u8 version | body}) sealed as a new frame. Does not release
     * {@code frame}; the caller owns the result.
     */
    ByteBuf seal(ByteBuf frame, ByteBufAllocator alloc) throws GeneralSecurityException {
        int from = frame.readerIndex();
        int bodyBytes = frame.readableBytes() - Frames.HEADER_BYTES;
        if (bodyBytes < 0) {
            throw new IllegalArgumentException("a frame of " + frame.readableBytes() + " bytes has no header");
        }
        setHeader(1 + bodyBytes + TAG_BYTES, frame.getByte(from + Frames.HEADER_BYTES - 1));
        ByteBuf out = alloc.ioBuffer(Frames.HEADER_BYTES + bodyBytes + TAG_BYTES);
        try {
            out.writeBytes(header);
            start(Cipher.ENCRYPT_MODE);
            int n = cipher.doFinal(frame.nioBuffer(from + Frames.HEADER_BYTES, bodyBytes),
                    out.nioBuffer(Frames.HEADER_BYTES, bodyBytes + TAG_BYTES));
            out.writerIndex(Frames.HEADER_BYTES + n);
            bytes += bodyBytes;
            return out;
        } catch (GeneralSecurityException | RuntimeException e) {
            out.release();
            throw e;
        }
    }

    /**
     * A sealed frame's content after its length ({@code u8 version | encrypted body | tag}) opened:
     * {@code u8 version | body}, as the protocol decoder reads frames. Does not release
     * {@code content}; the caller owns the result.
     *
     * @throws AEADBadTagException when the frame is not the next one the peer sealed under this key
     */
    ByteBuf open(ByteBuf content, ByteBufAllocator alloc) throws GeneralSecurityException {
        int from = content.readerIndex();
        int length = content.readableBytes();
        if (length < 1 + TAG_BYTES) {
            throw new AEADBadTagException("a sealed frame of " + length + " bytes, shorter than its tag");
        }
        int bodyBytes = length - 1 - TAG_BYTES;
        setHeader(length, content.getByte(from));
        ByteBuf out = alloc.buffer(1 + bodyBytes);
        try {
            out.writeByte(header[Frames.HEADER_BYTES - 1]);
            start(Cipher.DECRYPT_MODE);
            int n = cipher.doFinal(content.nioBuffer(from + 1, length - 1), out.nioBuffer(1, bodyBytes));
            out.writerIndex(1 + n);
            return out;
        } catch (GeneralSecurityException | RuntimeException e) {
            out.release();
            throw e;
        }
    }

    private void setHeader(int length, byte version) {
        header[0] = (byte) (length >>> 24);
        header[1] = (byte) (length >>> 16);
        header[2] = (byte) (length >>> 8);
        header[3] = (byte) length;
        header[4] = version;
    }

    /** Starts the next frame: the next nonce, and the header as associated data. */
    private void start(int mode) throws GeneralSecurityException {
        long counter = frames++;
        for (int i = 0; i < Long.BYTES; i++) {
            nonce[COUNTER_OFFSET + i] = (byte) (counter >>> (Long.SIZE - Byte.SIZE * (i + 1)));
        }
        cipher.init(mode, key, new GCMParameterSpec(TAG_BYTES * Byte.SIZE, nonce));
        cipher.updateAAD(header);
    }
}
