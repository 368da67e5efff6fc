package io.riptide.dolr.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.object.KeyRecords;
import io.riptide.core.object.KeyRevocation;
import io.riptide.core.object.ProviderTrust;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A node's revocations survive a restart over the same directory; a damaged file is ignored, not fatal. */
class KeyRecordsFileTest {
    private static SigningKey key(int b) {
        byte[] seed = new byte[32];
        Arrays.fill(seed, (byte) b);
        return SigningKey.fromSeed(seed);
    }

    @Test
    void revocationsKeptBesideTheStoreAreRestored(@TempDir Path dir) {
        SigningKey old = key(3);
        KeyRecords records = new KeyRecords(List.of(), List.of(KeyRevocation.sign(old, old.publicKey(), 1_000)));
        DiskWrites writes = new DiskWrites(StoreSettings.DISK_STAGE, DiskWrites.Limits.DEFAULT);
        KeyRecordsFile.open(dir, writes).keep(records);
        writes.drain();
        writes.close();

        KeyRecords restored = KeyRecordsFile.open(dir, new DiskWrites(StoreSettings.DISK_STAGE, DiskWrites.Limits.DEFAULT)).restored();
        assertEquals(records, restored);
        ProviderTrust trust = ProviderTrust.open();
        trust.learn(restored);
        assertTrue(trust.isRevoked(old.publicKey()), "after the restart the key is still revoked");
    }

    @Test
    void aDamagedFileIsIgnored(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(KeyRecordsFile.NAME), "revocation: %%%\n");
        assertEquals(KeyRecords.EMPTY,
                KeyRecordsFile.open(dir, new DiskWrites(StoreSettings.DISK_STAGE, DiskWrites.Limits.DEFAULT)).restored());
    }
}
