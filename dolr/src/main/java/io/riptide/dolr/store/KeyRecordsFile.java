package io.riptide.dolr.store;

import io.riptide.core.object.KeyRecords;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The key records (revocations, and the rotations that give their signers standing) a node has
 * learned, kept in a file beside its disk store and its version floor ({@value #NAME}), so that after
 * a restart the node still refuses what a revoked key signed. Revocations are rare and few
 * ({@link KeyRecords#MAX_RECORDS} at most), so each change rewrites the whole file: to a temporary
 * file, then renamed over the old one, through the node's {@link DiskWrites}, off its loop. A file
 * that cannot be read is logged and ignored: the node then learns the revocations again from the
 * trees and the gateways' key records, as a new node does.
 */
final class KeyRecordsFile {
    private static final Logger LOG = LoggerFactory.getLogger(KeyRecordsFile.class);
    /** The file's name in the store's directory. */
    static final String NAME = "key-records";

    private final Path file;
    private final DiskWrites writes;
    private final KeyRecords restored;

    private KeyRecordsFile(Path file, DiskWrites writes, KeyRecords restored) {
        this.file = file;
        this.writes = writes;
        this.restored = restored;
    }

    /** Opens the file in {@code dir}, reading what it holds (nothing if absent). Blocks. */
    static KeyRecordsFile open(Path dir, DiskWrites writes) {
        Path file = dir.resolve(NAME);
        KeyRecords restored = KeyRecords.EMPTY;
        if (Files.exists(file)) {
            try {
                restored = KeyRecords.load(file);
            } catch (IOException e) {
                LOG.warn("ignoring the key records in {}: {}", file, e.getMessage());
            }
        }
        return new KeyRecordsFile(file, writes, restored);
    }

    /** What the file held when opened. */
    KeyRecords restored() {
        return restored;
    }

    /** Queues a rewrite of the file with {@code records} (all the node knows now). */
    void keep(KeyRecords records) {
        writes.append(1024, () -> { }, () -> write(records));
    }

    private void write(KeyRecords records) throws IOException {
        Path tmp = file.resolveSibling(NAME + ".tmp");
        records.save(tmp, "Learned by this node; rewritten on each revocation.");
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
