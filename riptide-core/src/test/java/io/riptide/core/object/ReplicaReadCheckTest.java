package io.riptide.core.object;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What an access node's verified read takes from another node ({@link ReplicaUpdateCheck#authentic}). */
class ReplicaReadCheckTest {
    private static final Id GUID = ObjectNames.objectGuid(Samples.PROVIDER.publicKey(), Samples.URL, "");

    private static byte[] copy(WebObject object) {
        return CachedCopy.of(object).toBytes();
    }

    @Test
    void theProvidersCopyIsAuthenticAndATamperedOneIsNot() {
        ReplicaUpdateCheck check = new ReplicaUpdateCheck(new VersionFloor(16), 1 << 20);
        byte[] honest = copy(Samples.object(2));
        assertTrue(check.authentic(GUID, honest));

        WebObject real = Samples.object(2);
        byte[] body = real.response().body().clone();
        body[0] ^= 1;
        byte[] tampered = copy(WebObject.of(real.certificate(), body));
        assertFalse(check.authentic(GUID, tampered), "a body that is not what the provider signed");
        Id other = ObjectNames.objectGuid(Samples.PROVIDER.publicKey(), Samples.URL + "?other", "");
        assertFalse(check.authentic(other, honest), "a genuine copy passed off under another GUID");
        Id foreign = ObjectNames.objectGuid(Samples.OTHER_PROVIDER.publicKey(), Samples.URL, "");
        assertFalse(check.authentic(foreign, honest), "another provider's GUID");
    }

    @Test
    void junkIsNoAnswerToAClientsReadThoughAnUpdateCheckWouldTakeIt() {
        ReplicaUpdateCheck check = new ReplicaUpdateCheck(new VersionFloor(16), 1 << 20);
        assertFalse(check.authentic(GUID, "junk".getBytes()));
        assertTrue(check.admits(GUID, "junk".getBytes()), "the overlay's own data, for a node with no signed version");
    }

    @Test
    void anOlderVersionThanTheNodeHasAcceptedIsRefusedAndNothingIsCounted() {
        VersionFloor floor = new VersionFloor(16);
        ReplicaUpdateCheck check = new ReplicaUpdateCheck(floor, 1 << 20);
        assertTrue(check.admits(GUID, copy(Samples.object(3))));
        assertFalse(check.authentic(GUID, copy(Samples.object(2))), "a replay of an older version");
        assertTrue(check.authentic(GUID, copy(Samples.object(3))));
        assertFalse(check.authentic(GUID, copy(Tombstone.sign(Samples.OTHER_PROVIDER, Samples.URL, "", 4,
                Samples.RESPONSE_MS))), "another key's takedown");
        assertEquals(1, check.accepted());
        assertEquals(0, check.refused());
        assertEquals(0, check.tombstonesRefused());
    }

    @Test
    void keyRecordsPassWhenTheyDecode() {
        ReplicaUpdateCheck check = new ReplicaUpdateCheck(new VersionFloor(16), 1 << 20);
        KeyRecords records = new KeyRecords(List.of(KeyRotation.sign(Samples.PROVIDER, Samples.OTHER_PROVIDER.publicKey(), 1,
                Samples.RESPONSE_MS)), List.of());
        assertTrue(check.authentic(GUID, records.toBytes()));
    }
}
