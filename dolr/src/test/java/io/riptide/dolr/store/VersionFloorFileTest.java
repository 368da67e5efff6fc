package io.riptide.dolr.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.object.VersionFloor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The version floor's file: raises survive a reopen, a torn last entry is dropped and nothing before
 * it, a file that is not a floor file starts an empty floor, and the file stays within three times
 * the floor's capacity, keeping the GUIDs raised last.
 */
class VersionFloorFileTest {
    @TempDir
    Path dir;

    /** Writes that run at once on the caller, as a store's do before a node takes it. */
    private final DiskWrites writes = new DiskWrites(StoreSettings.DISK_STAGE, DiskWrites.Limits.DEFAULT);

    private static Id guid(int i) {
        return Id.hash("guid " + i);
    }

    private VersionFloorFile open(int capacity) throws IOException {
        return VersionFloorFile.open(dir, capacity, writes);
    }

    @Test
    void raisesSurviveAReopenAndNeverLower() throws IOException {
        try (VersionFloorFile file = open(16)) {
            VersionFloor floor = file.floor();
            floor.raise(guid(1), 3);
            floor.raise(guid(1), 2);
            floor.raise(guid(2), 7);
            floor.raise(guid(1), 5);
        }
        try (VersionFloorFile file = open(16)) {
            assertEquals(5, file.floor().floor(guid(1)));
            assertEquals(7, file.floor().floor(guid(2)));
            assertEquals(0, file.floor().floor(guid(3)));
            assertTrue(file.floor().admits(guid(1), 5));
            assertFalse(file.floor().admits(guid(1), 4));
            assertEquals(1, file.floor().refused());
        }
    }

    @Test
    void aTornLastEntryIsDroppedAndTheEntriesBeforeItKept() throws IOException {
        try (VersionFloorFile file = open(16)) {
            file.floor().raise(guid(1), 3);
            file.floor().raise(guid(2), 4);
        }
        Path path = dir.resolve(VersionFloorFile.NAME);
        // A third entry cut short by a crash, then one whose checksum does not match.
        Files.write(path, new byte[VersionFloorFile.ENTRY_BYTES - 5], StandardOpenOption.APPEND);
        try (VersionFloorFile file = open(16)) {
            assertEquals(3, file.floor().floor(guid(1)));
            assertEquals(4, file.floor().floor(guid(2)));
            assertEquals(2, file.entriesOnDisk(), "rewritten without the torn tail");
            file.floor().raise(guid(3), 9); // appends after the good entries
        }
        byte[] flipped = Files.readAllBytes(path);
        flipped[VersionFloorFile.HEADER_BYTES + VersionFloorFile.ENTRY_BYTES + 3] ^= 1; // the second entry
        Files.write(path, flipped);
        try (VersionFloorFile file = open(16)) {
            assertEquals(3, file.floor().floor(guid(1)));
            assertEquals(0, file.floor().floor(guid(2)), "a corrupt entry ends the replay");
            assertEquals(0, file.floor().floor(guid(3)));
        }
    }

    @Test
    void aFileThatIsNoFloorFileStartsEmpty() throws IOException {
        Files.write(dir.resolve(VersionFloorFile.NAME), "not a floor file at all, just text".getBytes());
        try (VersionFloorFile file = open(16)) {
            assertEquals(0, file.floor().size());
            file.floor().raise(guid(1), 2);
        }
        try (VersionFloorFile file = open(16)) {
            assertEquals(2, file.floor().floor(guid(1)));
        }
    }

    @Test
    void theFileStaysBoundedAndKeepsTheGuidsRaisedLast() throws IOException {
        int capacity = 8;
        try (VersionFloorFile file = open(capacity)) {
            for (int i = 0; i < 1000; i++) {
                file.floor().raise(guid(i), 1 + i);
                assertTrue(file.entriesOnDisk() <= 3L * capacity, "entries on disk " + file.entriesOnDisk() + " at raise " + i);
                assertTrue(Files.size(dir.resolve(VersionFloorFile.NAME))
                        <= VersionFloorFile.HEADER_BYTES + 3L * capacity * VersionFloorFile.ENTRY_BYTES);
            }
            assertTrue(file.rewrites() > 1, "rewritten past twice the capacity");
        }
        try (VersionFloorFile file = open(capacity)) {
            assertEquals(capacity, file.floor().size());
            for (int i = 1000 - capacity; i < 1000; i++) {
                assertEquals(1 + i, file.floor().floor(guid(i)), "kept " + i);
            }
            assertEquals(0, file.floor().floor(guid(1000 - capacity - 1)), "forgotten at the bound");
        }
    }
}
