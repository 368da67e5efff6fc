package io.riptide.core.object;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Tombstones as a node's update check and a reader's verifier see them. */
class TombstoneTest {
    private static final Id GUID = ObjectNames.objectGuid(Samples.PROVIDER.publicKey(), Samples.URL, "");

    private static byte[] copy(WebObject object) {
        return CachedCopy.of(object).toBytes();
    }

    private static WebObject tombstone(long version) {
        return Tombstone.sign(Samples.PROVIDER, Samples.URL, "", version, Samples.RESPONSE_MS + 5_000);
    }

    @Test
    void aTombstoneIsASignedEmptyGoneVersionThatSurvivesTheStoredForm() throws Exception {
        WebObject t = tombstone(3);
        WebObject back = CachedCopy.fromBytes(copy(t), 1024).object();
        assertTrue(back.certificate().isTombstone());
        assertEquals(410, back.certificate().statusCode());
        assertEquals(0, back.response().bodyLength());
        assertEquals(GUID, back.certificate().guid());
        assertTrue(back.certificate().signatureValid());
        assertFalse(Samples.object(3).certificate().isTombstone(), "an ordinary version is no tombstone");
    }

    @Test
    void anOriginsGoneIsNoTombstoneWithoutTheSignedMark() {
        StoredResponse gone = new StoredResponse(410, "Gone", Headers.of("cache-control", "max-age=60"), new byte[0]);
        ObjectCertificate c = ObjectCertificate.sign(Samples.PROVIDER, Samples.URL, "", 1, gone,
                Samples.REQUEST_MS, Samples.RESPONSE_MS, 60);
        assertFalse(c.isTombstone());
    }

    @Test
    void aNodeTakesTheTombstoneAboveItsVersionAndThenRefusesTheOlderOne() {
        VersionFloor floor = new VersionFloor(16);
        ReplicaUpdateCheck check = new ReplicaUpdateCheck(floor, 1 << 20);
        byte[] v2 = copy(Samples.object(2));
        assertTrue(check.admits(GUID, v2));
        assertTrue(check.admits(GUID, copy(tombstone(3))));
        assertEquals(1, check.tombstonesAccepted());
        assertEquals(3, floor.floor(GUID));

        assertFalse(check.admits(GUID, v2), "the replayed older version is refused");
        assertEquals(RejectReason.STALE_VERSION, check.lastRefusal().orElseThrow().rejectReason().orElseThrow());
        assertFalse(check.admits(GUID, "junk".getBytes()), "junk never replaces a signed object");
        assertEquals(2, check.refused());
    }

    @Test
    void aForgedTombstoneIsRefusedAndCounted() {
        VersionFloor floor = new VersionFloor(16);
        ReplicaUpdateCheck check = new ReplicaUpdateCheck(floor, 1 << 20);
        assertTrue(check.admits(GUID, copy(Samples.object(2))));

        // Signed by another key for the same URL: its name hashes to another GUID.
        WebObject foreign = Tombstone.sign(Samples.OTHER_PROVIDER, Samples.URL, "", 9, Samples.RESPONSE_MS);
        assertFalse(check.admits(GUID, copy(foreign)));
        assertEquals(RejectReason.WRONG_GUID, check.lastRefusal().orElseThrow().rejectReason().orElseThrow());

        // The provider's name, another key's signature.
        WebObject real = tombstone(9);
        byte[] badSignature = real.certificate().signature();
        badSignature[0] ^= 1;
        WebObject forged = WebObject.of(real.certificate().withSignature(badSignature), new byte[0]);
        assertFalse(check.admits(GUID, copy(forged)));
        assertEquals(RejectReason.BAD_SIGNATURE, check.lastRefusal().orElseThrow().rejectReason().orElseThrow());

        assertEquals(2, check.tombstonesRefused());
        assertEquals(0, check.tombstonesAccepted());
        assertEquals(2, floor.floor(GUID), "a forged tombstone raises nothing");
        assertTrue(check.admits(GUID, copy(Samples.object(2))), "the genuine version is still admitted");
    }

    @Test
    void dataThatIsNoWebObjectPassesWhereNoSignedObjectWasSeen() {
        ReplicaUpdateCheck check = new ReplicaUpdateCheck(new VersionFloor(16), 1 << 20);
        assertTrue(check.admits(Id.hash("some overlay data"), new byte[] {1, 2, 3}));
        assertEquals(0, check.refused());
    }

    @Test
    void aReaderVerifiesTheTombstoneAndThenRefusesTheReplay() {
        ObjectVerifier reader = new ObjectVerifier(Set.of(Samples.PROVIDER.publicKey()), new VersionFloor(16));
        assertTrue(reader.verify(tombstone(4), GUID).ok());
        Verification replay = reader.verify(Samples.object(3), GUID);
        assertEquals(RejectReason.STALE_VERSION, replay.rejectReason().orElseThrow());
        assertArrayEquals(new byte[0], tombstone(4).response().body());
    }
}
