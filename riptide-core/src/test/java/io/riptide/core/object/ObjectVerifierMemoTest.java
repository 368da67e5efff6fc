package io.riptide.core.object;

import static io.riptide.core.object.RejectReason.BAD_SIGNATURE;
import static io.riptide.core.object.RejectReason.BODY_DIGEST_MISMATCH;
import static io.riptide.core.object.RejectReason.STALE_VERSION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.crypto.VerifiedSignatures;
import io.riptide.core.id.Id;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A verifier with a memo of verified signatures: a repeat of what it already verified skips Ed25519,
 * and anything that differs in a signed byte, the signature or the body is still refused.
 */
class ObjectVerifierMemoTest {
    private VersionFloor floor;
    private VerifiedSignatures memo;
    private ObjectVerifier verifier;

    @BeforeEach
    void setUp() {
        floor = new VersionFloor(1024);
        memo = new VerifiedSignatures();
        verifier = new ObjectVerifier(Set.of(Samples.PROVIDER.publicKey()), floor, WebObject.DEFAULT_MAX_BODY_BYTES, memo);
    }

    private static void assertRejected(RejectReason reason, Verification v) {
        assertFalse(v.ok(), v.message());
        assertEquals(reason, v.rejectReason().orElseThrow(), v.message());
    }

    private static void assertAccepted(Verification v) {
        assertTrue(v.ok(), v.message());
    }

    private void assertCounts(long full, long hits) {
        assertEquals(full, memo.fullVerifications(), "full verifications");
        assertEquals(hits, memo.hits(), "memo hits");
    }

    @Test
    void theSameObjectIsVerifiedInFullOnceThenFromTheMemo() {
        WebObject object = Samples.object(Samples.PROVIDER, Samples.URL, "", 3, Samples.body(10_240, 3));
        Id guid = object.certificate().guid();
        assertAccepted(verifier.verify(object, guid));
        assertCounts(1, 0);
        for (int i = 1; i <= 5; i++) {
            assertAccepted(verifier.verify(object, guid));
            assertCounts(1, i);
        }
        // A copy decoded afresh from a replica's bytes is a different instance with the same bytes.
        assertTrue(verifier.verifyReplica(object.toBytes(), guid).ok());
        assertAccepted(verifier.verifyCertificate(object.certificate(), guid));
        assertCounts(1, 7);
        assertEquals(1, memo.size());
        assertEquals(3, floor.floor(guid));
        assertSame(memo, verifier.signatures().orElseThrow());
    }

    @Test
    void aDifferentBodyUnderAMemoisedCertificateIsStillRefused() {
        WebObject genuine = Samples.object(2);
        Id guid = genuine.certificate().guid();
        assertAccepted(verifier.verify(genuine, guid));
        byte[] body = genuine.response().body();
        body[body.length / 2] ^= 1;
        assertRejected(BODY_DIGEST_MISMATCH, verifier.verify(WebObject.of(genuine.certificate(), body), guid));
        assertRejected(BODY_DIGEST_MISMATCH, verifier.verify(WebObject.of(genuine.certificate(), new byte[0]), guid));
        // The certificate itself was fine (from the memo); the body check refused.
        assertCounts(1, 2);
        assertAccepted(verifier.verify(genuine, guid));
    }

    @Test
    void aTamperedHeadOrSignatureUnderTheSameVersionIsRefusedAfterTheGenuineOneWasMemoised() {
        WebObject genuine = Samples.object(2);
        ObjectCertificate c = genuine.certificate();
        assertAccepted(verifier.verify(genuine, c.guid()));
        assertAccepted(verifier.verify(genuine, c.guid()));
        assertCounts(1, 1);

        ObjectCertificate longerLife = new ObjectCertificate(c.provider(), c.guid(), c.canonicalUrl(), c.variantKey(),
                c.version(), c.bodyDigest(), c.statusCode(), c.reasonPhrase(),
                c.headers().with("Cache-Control", "max-age=31536000"), c.requestTimeMillis(), c.responseTimeMillis(),
                c.freshnessLifetimeSeconds(), c.signature());
        assertRejected(BAD_SIGNATURE, verifier.verify(WebObject.of(longerLife, genuine.response().body()), c.guid()));
        ObjectCertificate longerLifetime = new ObjectCertificate(c.provider(), c.guid(), c.canonicalUrl(),
                c.variantKey(), c.version(), c.bodyDigest(), c.statusCode(), c.reasonPhrase(), c.headers(),
                c.requestTimeMillis(), c.responseTimeMillis(), c.freshnessLifetimeSeconds() + 1, c.signature());
        assertRejected(BAD_SIGNATURE, verifier.verify(WebObject.of(longerLifetime, genuine.response().body()), c.guid()));
        // Another body with its digest certified under the genuine signature.
        byte[] otherBody = Samples.body(64, 99);
        ObjectCertificate otherDigest = new ObjectCertificate(c.provider(), c.guid(), c.canonicalUrl(), c.variantKey(),
                c.version(), Encoding.sha256(java.nio.ByteBuffer.wrap(otherBody)), c.statusCode(), c.reasonPhrase(),
                c.headers(), c.requestTimeMillis(), c.responseTimeMillis(), c.freshnessLifetimeSeconds(), c.signature());
        assertRejected(BAD_SIGNATURE, verifier.verify(WebObject.of(otherDigest, otherBody), c.guid()));
        int rejected = 3;
        byte[] sig = c.signature();
        for (int i = 0; i < sig.length; i += 7) {
            byte[] flipped = sig.clone();
            flipped[i] ^= (byte) 0x80;
            assertRejected(BAD_SIGNATURE, verifier.verify(new WebObject(c.withSignature(flipped), genuine.response()),
                    c.guid()));
            rejected++;
        }
        // Each was verified in full, and a failure is not remembered: asking again verifies again.
        assertCounts(1 + rejected, 1);
        assertRejected(BAD_SIGNATURE, verifier.verify(WebObject.of(longerLife, genuine.response().body()), c.guid()));
        assertCounts(2 + rejected, 1);
        assertEquals(1, memo.size());
        assertAccepted(verifier.verify(genuine, c.guid()));
        assertCounts(2 + rejected, 2);
    }

    @Test
    void theVersionFloorStillRefusesAMemoisedOlderVersion() {
        WebObject v1 = Samples.object(1);
        Id guid = v1.certificate().guid();
        assertAccepted(verifier.verify(v1, guid));
        assertAccepted(verifier.verify(Samples.object(2), guid));
        assertRejected(STALE_VERSION, verifier.verify(v1, guid));
        assertCounts(2, 0);
    }

    @Test
    void theMemoStaysWithinItsBound() {
        VerifiedSignatures small = new VerifiedSignatures(8);
        ObjectVerifier bounded = new ObjectVerifier(Set.of(Samples.PROVIDER.publicKey()), new VersionFloor(1024),
                WebObject.DEFAULT_MAX_BODY_BYTES, small);
        for (int i = 0; i < 40; i++) {
            WebObject object = Samples.object(Samples.PROVIDER, "http://example.com/" + i, "", 1, Samples.body(32, i));
            assertAccepted(bounded.verify(object, object.certificate().guid()));
            assertTrue(small.size() <= 8, "size " + small.size() + " after " + (i + 1) + " objects");
        }
        assertEquals(40, small.fullVerifications());
        assertTrue(small.size() > 0);
    }

    @Test
    void heartbeatsAndVariantRecordsHitTheMemoToo() {
        WebObject v2 = Samples.object(2);
        ObjectCertificate c = v2.certificate();
        assertAccepted(verifier.verify(v2, c.guid()));
        assertCounts(1, 0);
        Heartbeat heartbeat = Heartbeat.sign(Samples.PROVIDER, c.guid(), 2, Samples.RESPONSE_MS + 60_000);
        assertAccepted(verifier.verifyHeartbeat(heartbeat, c));
        assertCounts(2, 0);
        assertAccepted(verifier.verifyHeartbeat(heartbeat, c));
        assertCounts(2, 1);
        // A later heartbeat is another statement: verified in full.
        Heartbeat later = Heartbeat.sign(Samples.PROVIDER, c.guid(), 2, Samples.RESPONSE_MS + 120_000);
        assertAccepted(verifier.verifyHeartbeat(later, c));
        assertCounts(3, 1);
        // The memoised heartbeat's signature over a changed time is refused.
        assertRejected(BAD_SIGNATURE, verifier.verifyHeartbeat(new Heartbeat(heartbeat.provider(), heartbeat.guid(),
                2, heartbeat.issuedAtMillis() + 1, heartbeat.signature()), c));
        assertCounts(4, 1);

        Id base = ObjectNames.objectGuid(Samples.PROVIDER.publicKey(), "http://example.com/varies", "");
        VariantRecord record = VariantRecord.sign(Samples.PROVIDER, "http://example.com/varies",
                List.of("Accept-Encoding"), 1, Samples.RESPONSE_MS);
        assertAccepted(verifier.verifyVariantRecord(record, base));
        assertCounts(5, 1);
        assertAccepted(verifier.verifyVariantRecord(record, base));
        assertCounts(5, 2);
        byte[] sig = record.signature();
        sig[0] ^= 1;
        assertRejected(BAD_SIGNATURE, verifier.verifyVariantRecord(record.withSignature(sig), base));
        assertCounts(6, 2);
        VariantRecord otherFields = new VariantRecord(record.provider(), record.guid(), record.canonicalUrl(),
                List.of("accept-language"), 1, record.issuedAtMillis(), record.signature());
        assertRejected(BAD_SIGNATURE, verifier.verifyVariantRecord(otherFields, base));
        assertCounts(7, 2);
    }

    @Test
    void withoutAMemoNothingIsRemembered() {
        ObjectVerifier plain = new ObjectVerifier(Set.of(Samples.PROVIDER.publicKey()), new VersionFloor(16));
        assertTrue(plain.signatures().isEmpty());
        WebObject object = Samples.object(1);
        assertAccepted(plain.verify(object, object.certificate().guid()));
        assertAccepted(plain.verify(object, object.certificate().guid()));
        assertCounts(0, 0);
    }
}
