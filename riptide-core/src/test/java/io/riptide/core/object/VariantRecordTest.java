package io.riptide.core.object;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A provider's "this URL varies on ..." record: round-trips, and every forgery or replay is refused. */
class VariantRecordTest {
    private static final Id BASE = ObjectNames.objectGuid(Samples.PROVIDER.publicKey(), Samples.URL, "");
    private VersionFloor floor;
    private ObjectVerifier verifier;

    @BeforeEach
    void setUp() {
        floor = new VersionFloor(1024);
        verifier = new ObjectVerifier(Set.of(Samples.PROVIDER.publicKey()), floor);
    }

    private static VariantRecord record(long version) {
        return VariantRecord.sign(Samples.PROVIDER, Samples.URL, List.of("Accept-Encoding"), version, Samples.RESPONSE_MS);
    }

    private static void assertRejected(RejectReason reason, Verification v) {
        assertFalse(v.ok(), v.message());
        assertEquals(reason, v.rejectReason().orElseThrow(), v.message());
    }

    @Test
    void aGenuineRecordRoundTripsUnderTheBaseGuidAndVerifies() throws Exception {
        VariantRecord record = VariantRecord.sign(Samples.PROVIDER, Samples.URL,
                List.of("Accept-Language", "accept-encoding", "Accept-Encoding"), 2, Samples.RESPONSE_MS);
        assertEquals(List.of("accept-encoding", "accept-language"), record.varyFields(), "one spelling per set of names");
        assertEquals(BASE, record.guid(), "stored where a non-varying copy of the URL would be");
        byte[] stored = record.toBytes();
        assertTrue(VariantRecord.isVariantRecord(stored));
        assertFalse(VariantRecord.isVariantRecord(CachedCopy.of(Samples.object(1)).toBytes()),
                "a cached copy at the same GUID is told apart by its first byte");
        VariantRecord read = VariantRecord.fromBytes(stored);
        assertEquals(record, read);
        assertTrue(verifier.verifyVariantRecord(read, BASE).ok());
        assertEquals(2, floor.floor(BASE));
    }

    /** Any byte of the stored form changed: never accepted, whatever field it lands in. */
    @Test
    void everyFlippedStoredByteIsRejected() {
        byte[] stored = record(1).toBytes();
        for (int i = 0; i < stored.length; i++) {
            for (int delta : new int[] {1, 0x20, 0x80}) {
                byte[] tampered = stored.clone();
                tampered[i] ^= (byte) delta;
                VariantRecord decoded;
                try {
                    decoded = VariantRecord.fromBytes(tampered);
                } catch (ObjectFormatException e) {
                    continue; // refused before verification: fine
                }
                assertFalse(verifier.verifyVariantRecord(decoded, BASE).ok(), "byte " + i + " ^ " + delta + " was accepted");
            }
        }
        assertTrue(verifier.verifyVariantRecord(record(1), BASE).ok());
    }

    @Test
    void changedFieldsOrAForeignSignatureAreRejected() {
        VariantRecord genuine = record(1);
        // The same provider, URL and version, but claiming other fields: the signature no longer covers it.
        VariantRecord widened = new VariantRecord(genuine.provider(), genuine.guid(), genuine.canonicalUrl(),
                List.of("accept-encoding", "user-agent"), 1, genuine.issuedAtMillis(), genuine.signature());
        assertRejected(RejectReason.BAD_SIGNATURE, verifier.verifyVariantRecord(widened, BASE));
        VariantRecord byOther = VariantRecord.sign(Samples.OTHER_PROVIDER, Samples.URL, List.of("accept-encoding"), 1, 0);
        assertRejected(RejectReason.UNTRUSTED_PROVIDER, verifier.verifyVariantRecord(byOther, byOther.guid()));
        VariantRecord otherKeySignedAsOurs = genuine.withSignature(byOther.signature());
        assertRejected(RejectReason.BAD_SIGNATURE, verifier.verifyVariantRecord(otherKeySignedAsOurs, BASE));
    }

    @Test
    void aRecordForAnotherUrlOrServedForAnotherGuidIsRejected() {
        VariantRecord other = VariantRecord.sign(Samples.PROVIDER, "http://example.com/other.css", List.of("accept"), 1, 0);
        assertRejected(RejectReason.WRONG_GUID, verifier.verifyVariantRecord(other, BASE));
        // Relabelled: our GUID, another URL's name, signed genuinely — the GUID is not that URL's hash.
        VariantRecord relabelled = new VariantRecord(Samples.PROVIDER.publicKey(), BASE, other.canonicalUrl(),
                other.varyFields(), 1, 0, new byte[64]);
        VariantRecord signedRelabel = relabelled.withSignature(Samples.PROVIDER.sign(relabelled.signedBytes()));
        assertRejected(RejectReason.WRONG_GUID, verifier.verifyVariantRecord(signedRelabel, BASE));
    }

    @Test
    void anOlderRecordAfterANewerObjectOrRecordIsStale() {
        WebObject newer = Samples.object(Samples.PROVIDER, Samples.URL, "", 4, Samples.body(16, 1));
        assertTrue(verifier.verify(newer, BASE).ok());
        assertRejected(RejectReason.STALE_VERSION, verifier.verifyVariantRecord(record(3), BASE));
        assertTrue(verifier.verifyVariantRecord(record(5), BASE).ok());
        assertRejected(RejectReason.STALE_VERSION, verifier.verify(newer, BASE));
    }

    @Test
    void malformedRecordsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> VariantRecord.sign(Samples.PROVIDER, Samples.URL, List.of(), 1, 0));
        assertThrows(IllegalArgumentException.class, () -> VariantRecord.sign(Samples.PROVIDER, Samples.URL, List.of("*"), 1, 0));
        assertThrows(IllegalArgumentException.class, () -> VariantRecord.sign(Samples.PROVIDER, Samples.URL, List.of("a b"), 1, 0));
        byte[] stored = record(1).toBytes();
        assertThrows(ObjectFormatException.class, () -> VariantRecord.fromBytes(java.util.Arrays.copyOf(stored, stored.length - 1)));
        byte[] future = stored.clone();
        future[1] = 2;
        assertThrows(ObjectFormatException.class, () -> VariantRecord.fromBytes(future), "unknown formats are refused");
    }
}
