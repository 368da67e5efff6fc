package io.riptide.core.store.disk;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;
import java.util.zip.CheckedInputStream;
import java.util.zip.CheckedOutputStream;

/**
 * Writes and reads an index checkpoint: header words, then packed arrays, then a CRC32C of it all.
 * Written to a temporary file, synced and renamed over the old one, so a crash leaves either.
 */
final class CheckpointFile {
    static final long MAGIC = 0x52495054434b5031L; // "RIPTCKP1"
    private static final int CHUNK = 1 << 20;

    private CheckpointFile() {
    }

    /** Output side: header longs, then arrays in order. */
    static final class Writer implements AutoCloseable {
        private final Path target;
        private final Path tmp;
        private final java.io.FileOutputStream file;
        private final CheckedOutputStream checked;
        private final DataOutputStream out;
        private final byte[] chunk = new byte[CHUNK];
        private long bytes;

        private final boolean sync;

        Writer(Path target, boolean sync) throws IOException {
            this.target = target;
            this.sync = sync;
            this.tmp = target.resolveSibling(target.getFileName() + ".tmp");
            this.file = new java.io.FileOutputStream(tmp.toFile());
            this.checked = new CheckedOutputStream(new BufferedOutputStream(file, CHUNK), new CRC32C());
            this.out = new DataOutputStream(checked);
            out.writeLong(MAGIC);
        }

        Writer longs(long... values) throws IOException {
            for (long v : values) {
                out.writeLong(v);
            }
            return this;
        }

        Writer ints(int[] a) throws IOException {
            ByteBuffer b = ByteBuffer.wrap(chunk);
            for (int i = 0; i < a.length; ) {
                b.clear();
                int n = Math.min(a.length - i, CHUNK / 4);
                b.asIntBuffer().put(a, i, n);
                out.write(chunk, 0, n * 4);
                i += n;
            }
            return this;
        }

        Writer shorts(short[] a) throws IOException {
            ByteBuffer b = ByteBuffer.wrap(chunk);
            for (int i = 0; i < a.length; ) {
                b.clear();
                int n = Math.min(a.length - i, CHUNK / 2);
                b.asShortBuffer().put(a, i, n);
                out.write(chunk, 0, n * 2);
                i += n;
            }
            return this;
        }

        Writer longArray(long[] a) throws IOException {
            ByteBuffer b = ByteBuffer.wrap(chunk);
            for (int i = 0; i < a.length; ) {
                b.clear();
                int n = Math.min(a.length - i, CHUNK / 8);
                b.asLongBuffer().put(a, i, n);
                out.write(chunk, 0, n * 8);
                i += n;
            }
            return this;
        }

        Writer bytes(byte[] a) throws IOException {
            out.write(a);
            return this;
        }

        /** Appends the CRC, syncs and renames into place; returns the bytes written. */
        long commit() throws IOException {
            out.flush();
            long crc = checked.getChecksum().getValue();
            out.writeLong(crc);
            out.flush();
            bytes = out.size() & 0xffffffffL;
            if (sync) {
                file.getFD().sync();
            }
            out.close();
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            if (!sync) {
                return Files.size(target);
            }
            try (FileChannel dir = FileChannel.open(target.toAbsolutePath().getParent(), StandardOpenOption.READ)) {
                dir.force(true);
            } catch (IOException ignored) {
                // not every file system lets a directory be synced; the rename is still atomic
            }
            return Files.size(target);
        }

        @Override
        public void close() throws IOException {
            out.close();
            Files.deleteIfExists(tmp);
        }
    }

    /** Input side, in the order written; {@link #verify} checks the CRC at the end. */
    static final class Reader implements AutoCloseable {
        private final CheckedInputStream checked;
        private final DataInputStream in;
        private final byte[] chunk = new byte[CHUNK];

        Reader(Path file) throws IOException {
            InputStream raw = Files.newInputStream(file);
            this.checked = new CheckedInputStream(new BufferedInputStream(raw, CHUNK), new CRC32C());
            this.in = new DataInputStream(checked);
            if (in.readLong() != MAGIC) {
                throw new IOException("not a checkpoint: " + file);
            }
        }

        long readLong() throws IOException {
            return in.readLong();
        }

        void ints(int[] a) throws IOException {
            ByteBuffer b = ByteBuffer.wrap(chunk);
            for (int i = 0; i < a.length; ) {
                int n = Math.min(a.length - i, CHUNK / 4);
                in.readFully(chunk, 0, n * 4);
                b.clear();
                b.asIntBuffer().get(a, i, n);
                i += n;
            }
        }

        void shorts(short[] a) throws IOException {
            ByteBuffer b = ByteBuffer.wrap(chunk);
            for (int i = 0; i < a.length; ) {
                int n = Math.min(a.length - i, CHUNK / 2);
                in.readFully(chunk, 0, n * 2);
                b.clear();
                b.asShortBuffer().get(a, i, n);
                i += n;
            }
        }

        void longArray(long[] a) throws IOException {
            ByteBuffer b = ByteBuffer.wrap(chunk);
            for (int i = 0; i < a.length; ) {
                int n = Math.min(a.length - i, CHUNK / 8);
                in.readFully(chunk, 0, n * 8);
                b.clear();
                b.asLongBuffer().get(a, i, n);
                i += n;
            }
        }

        void bytes(byte[] a) throws IOException {
            in.readFully(a);
        }

        /** Throws unless the stored CRC matches everything read. */
        void verify() throws IOException {
            long expected = checked.getChecksum().getValue();
            long stored = in.readLong();
            if (stored != expected) {
                throw new IOException("checkpoint CRC mismatch");
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    /** Reads exactly {@code n} bytes at {@code position} (fewer at end of file). */
    static int readFully(FileChannel ch, byte[] into, int offset, int n, long position) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(into, offset, n);
        int total = 0;
        while (b.hasRemaining()) {
            int r = ch.read(b, position + total);
            if (r < 0) {
                break;
            }
            total += r;
        }
        return total;
    }

    static void writeFully(FileChannel ch, byte[] from, int offset, int n, long position) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(from, offset, n);
        long p = position;
        while (b.hasRemaining()) {
            p += ch.write(b, p);
        }
    }
}
