package io.riptide.core.store.disk;

import io.riptide.core.id.Id;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The on-disk record, big-endian:
 *
 * <pre>
 *  0  int    magic       RECORD, TOMBSTONE or PADDING
 *  4  int    crc         CRC32C of bytes 8 .. 40+length
 *  8  long   generation  the file's epoch (high 32 bits) and the log lap (low 32 bits)
 * 16  byte20 key         the full 160-bit ID
 * 36  int    length      value bytes that follow
 * 40  byte[] value
 * </pre>
 *
 * A reader accepts a record only if the magic, the generation, the key and the CRC all match; anything
 * else (a tag collision, a stale lap, a torn or corrupt write) is a miss.
 */
final class RecordFormat {
    static final int HEADER = 40;
    static final int RECORD = 0x52505444; // "RPTD"
    static final int TOMBSTONE = 0x5250544b; // "RPTK"
    static final int PADDING = 0x52505450; // "RPTP"

    /** Why a record was refused; {@link #OK} when it was accepted. */
    enum Check { OK, EMPTY, CORRUPT, STALE, OTHER_KEY }

    private RecordFormat() {
    }

    static long generation(int epoch, long lap) {
        return ((long) epoch << 32) | (lap & 0xffffffffL);
    }

    /** Writes a record of {@code magic} at {@code offset} of {@code out} (a null value leaves the bytes there); returns its unaligned length. */
    static int encode(byte[] out, int offset, int magic, long generation, Id key, byte[] value, int valueLength) {
        ByteBuffer b = ByteBuffer.wrap(out, offset, HEADER);
        b.putInt(magic).putInt(0).putLong(generation);
        b.put(key.toBytes());
        b.putInt(valueLength);
        if (value != null && valueLength > 0) {
            System.arraycopy(value, 0, out, offset + HEADER, valueLength);
        }
        int crc = crc(out, offset, HEADER + valueLength);
        ByteBuffer.wrap(out, offset + 4, 4).putInt(crc);
        return HEADER + valueLength;
    }

    static int crc(byte[] buf, int offset, int recordLength) {
        CRC32C c = new CRC32C();
        c.update(buf, offset + 8, recordLength - 8);
        return (int) c.getValue();
    }

    static int magic(byte[] buf, int offset) {
        return ByteBuffer.wrap(buf, offset, 4).getInt();
    }

    static long generationAt(byte[] buf, int offset) {
        return ByteBuffer.wrap(buf, offset + 8, 8).getLong();
    }

    static Id keyAt(byte[] buf, int offset) {
        return Id.fromBytes(buf, offset + 16);
    }

    /** The value length in the header, or -1 if negative. */
    static int lengthAt(byte[] buf, int offset) {
        int n = ByteBuffer.wrap(buf, offset + 36, 4).getInt();
        return n < 0 ? -1 : n;
    }

    /**
     * Checks the record of {@code available} bytes at {@code offset} (the whole record must be there)
     * against the expected magic, generation and key; a null key accepts any.
     */
    static Check check(byte[] buf, int offset, int available, int magic, long generation, Id key) {
        if (available < HEADER) {
            return Check.CORRUPT;
        }
        int m = magic(buf, offset);
        if (m == 0) {
            return Check.EMPTY;
        }
        if (m != magic) {
            return Check.CORRUPT;
        }
        int length = lengthAt(buf, offset);
        if (length < 0 || length > available - HEADER) {
            return Check.CORRUPT;
        }
        if (crc(buf, offset, HEADER + length) != ByteBuffer.wrap(buf, offset + 4, 4).getInt()) {
            return Check.CORRUPT;
        }
        if (generationAt(buf, offset) != generation) {
            return Check.STALE;
        }
        if (key != null && !keyAt(buf, offset).equals(key)) {
            return Check.OTHER_KEY;
        }
        return Check.OK;
    }

    static byte[] value(byte[] buf, int offset) {
        int length = lengthAt(buf, offset);
        byte[] v = new byte[length];
        System.arraycopy(buf, offset + HEADER, v, 0, length);
        return v;
    }
}
