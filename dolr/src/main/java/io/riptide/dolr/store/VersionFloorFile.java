package io.riptide.dolr.store;

import io.riptide.core.id.Id;
import io.riptide.core.object.VersionFloor;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's {@link VersionFloor} kept in a file beside its disk store ({@value #NAME}), so that after
 * a restart over the same directory the node still refuses a version older than the highest it
 * accepted for a GUID.
 *
 * <p><b>Layout.</b> An 8-byte magic, then entries of {@value #ENTRY_BYTES} bytes: {@code 20-byte GUID
 * | i64 version | CRC32C of the 28 bytes before}. Each raise that changes the floor is appended
 * (coalesced per GUID while a write is queued) through the node's {@link DiskWrites}, so off its loop
 * and in order with the replica store's writes, and synced. Opening replays the entries in order
 * (the highest version per GUID wins; the order of last raises is the recency order) and stops at
 * the first entry that does not verify: a torn tail after a crash.
 *
 * <p><b>Bound.</b> In memory the floor keeps its capacity's GUIDs, least recently used forgotten
 * first. On disk, whenever the file holds more than twice the capacity's entries it is rewritten
 * with exactly what the floor holds (to a temporary file, synced, renamed over the old one), so it
 * holds at most about three times the capacity's entries (the last batch can add one capacity's
 * worth): 6 MiB at the default 65,536 GUIDs. A GUID forgotten at the bound loses its protection
 * against replays, in memory at once and on disk from the next rewrite, as before the floor was
 * persisted. Recency on disk is that of raises: reads that kept a GUID recently used in memory are
 * not written, so after a restart the GUIDs raised longest ago go first.
 *
 * <p><b>Durability.</b> A raise is durable once its append has run on the disk stage; a crash loses
 * raises still queued (at most a batch's worth of writes behind), after which a replay of that one
 * version is accepted once more, as by a node without the file.
 */
public final class VersionFloorFile implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(VersionFloorFile.class);
    /** The file's name in the store's directory. */
    public static final String NAME = "version-floor";
    static final int ENTRY_BYTES = Id.BYTES + Long.BYTES + Integer.BYTES;
    static final int HEADER_BYTES = Long.BYTES;
    private static final long MAGIC = 0x524950464c4f5231L; // "RIPFLOR1"

    private final Path file;
    private final VersionFloor floor;
    private final DiskWrites writes;
    // Guarded by this: raises not yet written, at most the floor's capacity (the eldest go first).
    private final LinkedHashMap<Id, Long> unwritten;
    private boolean writeQueued;
    // Touched only by the one thread running disk writes at a time, and by open and close.
    private FileChannel channel;
    private long entries;
    private long rewrites;

    private VersionFloorFile(Path file, int capacity, DiskWrites writes) {
        this.file = file;
        this.writes = writes;
        this.floor = new VersionFloor(capacity, this::raised);
        this.unwritten = new LinkedHashMap<>(16, 0.75f, false) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Id, Long> eldest) {
                return size() > capacity;
            }
        };
    }

    /**
     * Opens (or creates) the floor file in {@code dir}, restoring a floor of at most {@code capacity}
     * GUIDs from it; its raises are written through {@code writes}. Blocks: call at start-up, off
     * the node's loop.
     */
    public static VersionFloorFile open(Path dir, int capacity, DiskWrites writes) throws IOException {
        VersionFloorFile f = new VersionFloorFile(dir.resolve(NAME), capacity, writes);
        f.load();
        return f;
    }

    /** The floor, restored from the file; its raises are written back to it. */
    public VersionFloor floor() {
        return floor;
    }

    /** Entries the file holds now (duplicates of a GUID included). */
    synchronized long entriesOnDisk() {
        return entries;
    }

    /** Times the file was rewritten to what the floor holds (at open, or past twice the capacity). */
    synchronized long rewrites() {
        return rewrites;
    }

    private void load() throws IOException {
        boolean rewrite = true;
        long read = 0;
        if (Files.exists(file)) {
            try (InputStream in = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
                DataInputStream data = new DataInputStream(in);
                if (data.readLong() != MAGIC) {
                    LOG.warn("version floor {}: not a floor file; starting with no floors", file);
                } else {
                    byte[] entry = new byte[ENTRY_BYTES];
                    boolean torn = false;
                    while (true) {
                        int got = data.readNBytes(entry, 0, ENTRY_BYTES);
                        if (got == 0) {
                            break;
                        }
                        if (got < ENTRY_BYTES || crc(entry) != ByteBuffer.wrap(entry).getInt(Id.BYTES + Long.BYTES)) {
                            torn = true;
                            break;
                        }
                        floor.restore(Id.fromBytes(entry, 0), ByteBuffer.wrap(entry).getLong(Id.BYTES));
                        read++;
                    }
                    if (torn) {
                        LOG.warn("version floor {}: entry {} does not verify (a write cut short); kept the {} before it",
                                file, read + 1, read);
                    }
                    rewrite = torn || read > floor.size();
                }
            } catch (EOFException e) {
                LOG.warn("version floor {}: shorter than its header; starting with no floors", file);
            }
        }
        if (rewrite) {
            rewrite();
        } else {
            channel = FileChannel.open(file, StandardOpenOption.WRITE);
            entries = read;
        }
    }

    /** On the raising thread: queues the raise for the next append. */
    private void raised(Id guid, long version) {
        boolean start;
        synchronized (this) {
            unwritten.merge(guid, version, Math::max);
            start = !writeQueued;
            writeQueued = true;
        }
        if (start) {
            writes.append(ENTRY_BYTES, () -> { }, this::appendUnwritten);
        }
    }

    /** A disk write: appends the raises queued so far and syncs; rewrites the file past the bound. */
    private void appendUnwritten() throws IOException {
        List<Map.Entry<Id, Long>> batch;
        synchronized (this) {
            batch = new ArrayList<>(unwritten.entrySet());
            unwritten.clear();
            writeQueued = false;
        }
        if (batch.isEmpty()) {
            return;
        }
        ByteBuffer out = encode(batch);
        long position = HEADER_BYTES + entries * ENTRY_BYTES;
        while (out.hasRemaining()) {
            position += channel.write(out, position);
        }
        channel.force(false);
        synchronized (this) {
            entries += batch.size();
        }
        if (entries > 2L * floor.capacity()) {
            rewrite();
        }
    }

    /** Replaces the file with exactly what the floor holds, least recently used first. */
    private void rewrite() throws IOException {
        List<Map.Entry<Id, Long>> all = floor.entries();
        Path tmp = file.resolveSibling(NAME + ".tmp");
        try (FileChannel out = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).putLong(MAGIC).flip();
            ByteBuffer body = encode(all);
            long position = 0;
            while (header.hasRemaining()) {
                position += out.write(header, position);
            }
            while (body.hasRemaining()) {
                position += out.write(body, position);
            }
            out.force(true);
        }
        if (channel != null) {
            channel.close();
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        channel = FileChannel.open(file, StandardOpenOption.WRITE);
        synchronized (this) {
            entries = all.size();
            rewrites++;
        }
    }

    private static ByteBuffer encode(List<Map.Entry<Id, Long>> batch) {
        ByteBuffer out = ByteBuffer.allocate(batch.size() * ENTRY_BYTES);
        byte[] entry = new byte[ENTRY_BYTES];
        ByteBuffer e = ByteBuffer.wrap(entry);
        for (Map.Entry<Id, Long> b : batch) {
            e.clear();
            e.put(b.getKey().toBytes()).putLong(b.getValue());
            e.putInt(crc(entry));
            out.put(entry);
        }
        return out.flip();
    }

    private static int crc(byte[] entry) {
        CRC32C c = new CRC32C();
        c.update(entry, 0, Id.BYTES + Long.BYTES);
        return (int) c.getValue();
    }

    /** Closes the file. Call after the node's disk writes have been drained ({@link DiskWrites#close}). */
    @Override
    public void close() {
        try {
            if (channel != null) {
                channel.close();
            }
        } catch (IOException e) {
            LOG.warn("version floor {}: close failed", file, e);
        }
    }
}
