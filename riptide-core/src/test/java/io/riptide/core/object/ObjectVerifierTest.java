package io.riptide.core.object;

import static io.riptide.core.object.RejectReason.BAD_SIGNATURE;
import static io.riptide.core.object.RejectReason.BODY_DIGEST_MISMATCH;
import static io.riptide.core.object.RejectReason.MALFORMED;
import static io.riptide.core.object.RejectReason.STALE_VERSION;
import static io.riptide.core.object.RejectReason.UNTRUSTED_PROVIDER;
import static io.riptide.core.object.RejectReason.WRONG_GUID;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.id.Id;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every way a replica from an untrusted storage node can be wrong is rejected, every time. */
class ObjectVerifierTest {
    private VersionFloor floor;
    private ObjectVerifier verifier;

    @BeforeEach
    void setUp() {
        floor = new VersionFloor(1024);
        verifier = new ObjectVerifier(Set.of(Samples.PROVIDER.publicKey()), floor);
    }

    private static void assertRejected(RejectReason reason, Verification v) {
        assertFalse(v.ok(), v.message());
        assertEquals(reason, v.rejectReason().orElseThrow(), v.message());
    }

    private static void assertAccepted(Verification v) {
        assertTrue(v.ok(), v.message());
    }

    @Test
    void acceptsAGenuineObjectAndRaisesTheFloor() {
        WebObject object = Samples.object(3);
        Id guid = object.certificate().guid();
        assertAccepted(verifier.verify(object, guid));
        assertEquals(3, floor.floor(guid));
        assertAccepted(verifier.verify(object, guid)); // the same version again is still current
        ReplicaVerification replica = verifier.verifyReplica(object.toBytes(), guid);
        assertTrue(replica.ok());
        assertEquals(object, replica.object().orElseThrow());
    }

    @Test
    void everyFlippedBodyBitIsRejected() {
        WebObject object = Samples.object(Samples.PROVIDER, Samples.URL, "", 1, Samples.body(64, 5));
        Id guid = object.certificate().guid();
        byte[] body = object.response().body();
        for (int i = 0; i < body.length; i++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] tampered = body.clone();
                tampered[i] ^= (byte) (1 << bit);
                assertRejected(BODY_DIGEST_MISMATCH, verifier.verify(WebObject.of(object.certificate(), tampered), guid));
            }
        }
        // Longer, shorter, and empty bodies too.
        assertRejected(BODY_DIGEST_MISMATCH, verifier.verify(WebObject.of(object.certificate(), new byte[65]), guid));
        assertRejected(BODY_DIGEST_MISMATCH, verifier.verify(WebObject.of(object.certificate(), new byte[0]), guid));
        assertAccepted(verifier.verify(object, guid));
    }

    /** Any single byte of the stored form changed: never accepted, whatever field it lands in. */
    @Test
    void everyFlippedStoredByteIsRejected() {
        WebObject object = Samples.object(Samples.PROVIDER, Samples.URL, "gzip", 1, Samples.body(48, 6));
        Id guid = object.certificate().guid();
        byte[] bytes = object.toBytes();
        for (int i = 0; i < bytes.length; i++) {
            for (int delta : new int[] {1, 0x80, 0xff}) {
                byte[] tampered = bytes.clone();
                tampered[i] ^= (byte) delta;
                ReplicaVerification result = verifier.verifyReplica(tampered, guid);
                assertFalse(result.ok(), "byte " + i + " ^ " + delta + ": " + result.verification().message());
            }
        }
        assertTrue(verifier.verifyReplica(bytes, guid).ok());
    }

    @Test
    void forgedSignaturesAreRejected() {
        WebObject genuine = Samples.object(2);
        ObjectCertificate c = genuine.certificate();
        Id guid = c.guid();
        // Every bit of the signature flipped in turn.
        byte[] sig = c.signature();
        for (int i = 0; i < sig.length; i++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] forged = sig.clone();
                forged[i] ^= (byte) (1 << bit);
                assertRejected(BAD_SIGNATURE, verifier.verify(new WebObject(c.withSignature(forged), genuine.response()), guid));
            }
        }
        // Signed by someone else but claiming the trusted provider's key.
        byte[] otherSig = Samples.OTHER_PROVIDER.sign(c.signedBytes());
        assertRejected(BAD_SIGNATURE, verifier.verify(new WebObject(c.withSignature(otherSig), genuine.response()), guid));
        // All zeros.
        assertRejected(BAD_SIGNATURE, verifier.verify(new WebObject(c.withSignature(new byte[64]), genuine.response()), guid));
    }

    @Test
    void tamperedHeadIsRejected() {
        WebObject genuine = Samples.object(2);
        ObjectCertificate c = genuine.certificate();
        ObjectCertificate longerLife = new ObjectCertificate(c.provider(), c.guid(), c.canonicalUrl(), c.variantKey(),
                c.version(), c.bodyDigest(), c.statusCode(), c.reasonPhrase(),
                c.headers().with("Cache-Control", "max-age=31536000"), c.requestTimeMillis(), c.responseTimeMillis(),
                c.freshnessLifetimeSeconds(), c.signature());
        assertRejected(BAD_SIGNATURE, verifier.verify(WebObject.of(longerLife, genuine.response().body()), c.guid()));
        ObjectCertificate laterResponse = new ObjectCertificate(c.provider(), c.guid(), c.canonicalUrl(), c.variantKey(),
                c.version(), c.bodyDigest(), c.statusCode(), c.reasonPhrase(), c.headers(), c.requestTimeMillis(),
                c.responseTimeMillis() + 3_600_000, c.freshnessLifetimeSeconds(), c.signature());
        assertRejected(BAD_SIGNATURE, verifier.verify(WebObject.of(laterResponse, genuine.response().body()), c.guid()));
        ObjectCertificate redirect = new ObjectCertificate(c.provider(), c.guid(), c.canonicalUrl(), c.variantKey(),
                c.version(), c.bodyDigest(), 302, "Found", c.headers().with("Location", "http://evil.example/"),
                c.requestTimeMillis(), c.responseTimeMillis(), c.freshnessLifetimeSeconds(), c.signature());
        assertRejected(BAD_SIGNATURE, verifier.verify(WebObject.of(redirect, genuine.response().body()), c.guid()));
    }

    @Test
    void wrongGuidsAreRejected() {
        WebObject a = Samples.object(Samples.PROVIDER, "http://example.com/a", "", 1, Samples.body(32, 1));
        WebObject b = Samples.object(Samples.PROVIDER, "http://example.com/b", "", 1, Samples.body(32, 2));
        Id guidB = b.certificate().guid();
        // A genuine object for URL A served for URL B.
        assertRejected(WRONG_GUID, verifier.verify(a, guidB));
        assertRejected(WRONG_GUID, verifier.verifyReplica(a.toBytes(), guidB).verification());
        // The same URL in another variant is another object.
        WebObject gz = Samples.object(Samples.PROVIDER, "http://example.com/b", "gzip", 1, Samples.body(32, 2));
        assertRejected(WRONG_GUID, verifier.verify(gz, guidB));
        // A certificate whose GUID field was relabelled to B (unsigned) or genuinely signed that way
        // by the provider by mistake: the GUID is not the hash of the name, so it is refused either way.
        ObjectCertificate c = a.certificate();
        ObjectCertificate relabelled = new ObjectCertificate(c.provider(), guidB, c.canonicalUrl(), c.variantKey(),
                c.version(), c.bodyDigest(), c.statusCode(), c.reasonPhrase(), c.headers(), c.requestTimeMillis(),
                c.responseTimeMillis(), c.freshnessLifetimeSeconds(), c.signature());
        assertRejected(WRONG_GUID, verifier.verify(WebObject.of(relabelled, a.response().body()), guidB));
        ObjectCertificate signedWrong = relabelled.withSignature(Samples.PROVIDER.sign(relabelled.signedBytes()));
        assertTrue(signedWrong.signatureValid());
        assertRejected(WRONG_GUID, verifier.verify(WebObject.of(signedWrong, a.response().body()), guidB));
    }

    @Test
    void olderVersionAfterANewerOneIsStale() {
        WebObject v1 = Samples.object(1);
        WebObject v2 = Samples.object(2);
        WebObject v3 = Samples.object(3);
        Id guid = v1.certificate().guid();
        assertEquals(guid, v3.certificate().guid());
        assertAccepted(verifier.verify(v1, guid));
        assertAccepted(verifier.verify(v3, guid));
        for (int i = 0; i < 10; i++) {
            assertRejected(STALE_VERSION, verifier.verify(v1, guid));
            assertRejected(STALE_VERSION, verifier.verify(v2, guid));
            assertRejected(STALE_VERSION, verifier.verifyReplica(v2.toBytes(), guid).verification());
            assertRejected(STALE_VERSION, verifier.verifyCertificate(v2.certificate(), guid));
        }
        assertAccepted(verifier.verify(v3, guid));
        // A certificate alone also raises the floor.
        assertAccepted(verifier.verifyCertificate(Samples.object(4).certificate(), guid));
        assertRejected(STALE_VERSION, verifier.verify(v3, guid));
    }

    @Test
    void untrustedProvidersAreRejectedEvenWithValidSignatures() {
        WebObject theirs = Samples.object(Samples.OTHER_PROVIDER, Samples.URL, "", 1, Samples.body(32, 1));
        assertTrue(theirs.certificate().signatureValid());
        assertRejected(UNTRUSTED_PROVIDER, verifier.verify(theirs, theirs.certificate().guid()));
        // Trusted, it passes; but it names a different object than the first provider's same URL.
        ObjectVerifier both = new ObjectVerifier(
                Set.of(Samples.PROVIDER.publicKey(), Samples.OTHER_PROVIDER.publicKey()), new VersionFloor(16));
        assertAccepted(both.verify(theirs, theirs.certificate().guid()));
        Id ours = Samples.object(1).certificate().guid();
        assertNotEquals(ours, theirs.certificate().guid());
        assertRejected(WRONG_GUID, both.verify(theirs, ours));
    }

    @Test
    void rejectionsLeaveTheFloorAlone() {
        WebObject v5 = Samples.object(5);
        Id guid = v5.certificate().guid();
        byte[] body = v5.response().body();
        body[0] ^= 1;
        assertRejected(BODY_DIGEST_MISMATCH, verifier.verify(WebObject.of(v5.certificate(), body), guid));
        assertRejected(BAD_SIGNATURE, verifier.verify(new WebObject(v5.certificate().withSignature(new byte[64]),
                v5.response()), guid));
        assertEquals(0, floor.floor(guid));
        assertAccepted(verifier.verify(Samples.object(1), guid));
    }

    @Test
    void malformedReplicasAreReportedAsSuch() {
        Id guid = Samples.object(1).certificate().guid();
        ReplicaVerification result = verifier.verifyReplica(new byte[] {1, 2, 3}, guid);
        assertRejected(MALFORMED, result.verification());
        assertTrue(result.object().isEmpty());
        ObjectVerifier small = new ObjectVerifier(Set.of(Samples.PROVIDER.publicKey()), floor, 10);
        assertRejected(MALFORMED, small.verifyReplica(Samples.object(1).toBytes(), guid).verification());
    }

    // Heartbeats.

    private static Heartbeat heartbeat(SigningKey key, Id guid, long version) {
        return Heartbeat.sign(key, guid, version, Samples.RESPONSE_MS + 60_000);
    }

    @Test
    void heartbeatRoundTripsAndExtendsTheSameVersion() throws Exception {
        WebObject v2 = Samples.object(2);
        ObjectCertificate c = v2.certificate();
        assertAccepted(verifier.verify(v2, c.guid()));
        Heartbeat hb = heartbeat(Samples.PROVIDER, c.guid(), 2);
        byte[] bytes = hb.toBytes();
        assertEquals(Heartbeat.ENCODED_BYTES, bytes.length);
        assertEquals(hb, Heartbeat.fromBytes(bytes));
        assertAccepted(verifier.verifyHeartbeat(Heartbeat.fromBytes(bytes), c));
        for (int length = 0; length < bytes.length; length++) {
            byte[] cut = java.util.Arrays.copyOf(bytes, length);
            org.junit.jupiter.api.Assertions.assertThrows(ObjectFormatException.class, () -> Heartbeat.fromBytes(cut));
        }
    }

    @Test
    void badHeartbeatsAreRejected() {
        WebObject v2 = Samples.object(2);
        ObjectCertificate c = v2.certificate();
        assertAccepted(verifier.verify(v2, c.guid()));
        Heartbeat good = heartbeat(Samples.PROVIDER, c.guid(), 2);
        byte[] sig = good.signature();
        for (int i = 0; i < sig.length; i++) {
            byte[] forged = sig.clone();
            forged[i] ^= 1;
            assertRejected(BAD_SIGNATURE, verifier.verifyHeartbeat(good.withSignature(forged), c));
        }
        // Fields changed under the original signature.
        assertRejected(BAD_SIGNATURE, verifier.verifyHeartbeat(
                new Heartbeat(good.provider(), good.guid(), 2, good.issuedAtMillis() + 1, sig), c));
        assertRejected(BAD_SIGNATURE, verifier.verifyHeartbeat(
                new Heartbeat(good.provider(), good.guid(), 3, good.issuedAtMillis(), sig), c));
        // A certificate's signature cannot pass as a heartbeat's, nor the reverse.
        assertRejected(BAD_SIGNATURE, verifier.verifyHeartbeat(good.withSignature(c.signature()), c));
        // Another object's heartbeat, an untrusted signer, a trusted signer speaking for another's name.
        Id elsewhere = ObjectNames.objectGuid(Samples.PROVIDER.publicKey(), "http://example.com/other", "");
        assertRejected(WRONG_GUID, verifier.verifyHeartbeat(heartbeat(Samples.PROVIDER, elsewhere, 2), c));
        assertRejected(UNTRUSTED_PROVIDER, verifier.verifyHeartbeat(heartbeat(Samples.OTHER_PROVIDER, c.guid(), 2), c));
        ObjectVerifier both = new ObjectVerifier(
                Set.of(Samples.PROVIDER.publicKey(), Samples.OTHER_PROVIDER.publicKey()), new VersionFloor(16));
        assertRejected(UNTRUSTED_PROVIDER, both.verifyHeartbeat(heartbeat(Samples.OTHER_PROVIDER, c.guid(), 2), c));
        // A heartbeat for an older version than the one held.
        assertRejected(STALE_VERSION, verifier.verifyHeartbeat(heartbeat(Samples.PROVIDER, c.guid(), 1), c));
        assertEquals(2, floor.floor(c.guid()));
        assertAccepted(verifier.verifyHeartbeat(good, c));
    }

    @Test
    void aHeartbeatForANewerVersionSupersedesTheHeldObject() {
        WebObject v2 = Samples.object(2);
        ObjectCertificate c = v2.certificate();
        assertAccepted(verifier.verify(v2, c.guid()));
        assertRejected(STALE_VERSION, verifier.verifyHeartbeat(heartbeat(Samples.PROVIDER, c.guid(), 3), c));
        assertEquals(3, floor.floor(c.guid()));
        // From now on version 2 is refused, by object and by heartbeat alike; version 3 is welcome.
        assertRejected(STALE_VERSION, verifier.verify(v2, c.guid()));
        assertRejected(STALE_VERSION, verifier.verifyHeartbeat(heartbeat(Samples.PROVIDER, c.guid(), 2), c));
        assertAccepted(verifier.verify(Samples.object(3), c.guid()));
        // A forged heartbeat for a newer version does not move the floor.
        Heartbeat forged = heartbeat(Samples.PROVIDER, c.guid(), 9).withSignature(new byte[64]);
        assertRejected(BAD_SIGNATURE, verifier.verifyHeartbeat(forged, c));
        assertEquals(3, floor.floor(c.guid()));
    }
}
