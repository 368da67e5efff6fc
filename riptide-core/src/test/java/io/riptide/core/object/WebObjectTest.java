package io.riptide.core.object;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.riptide.core.http.Headers;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The stored form and the certificate's fields: round trips, determinism, and hostile bytes. */
class WebObjectTest {
    @Test
    void roundTrips() throws Exception {
        for (int length : new int[] {0, 1, 1024, 100 * 1024}) {
            WebObject object = Samples.object(Samples.PROVIDER, Samples.URL, length % 2 == 0 ? "" : "gzip", 3,
                    Samples.body(length, length));
            byte[] bytes = object.toBytes();
            WebObject back = WebObject.fromBytes(bytes);
            assertEquals(object, back);
            assertArrayEquals(bytes, back.toBytes());
            assertArrayEquals(object.certificate().signedBytes(), back.certificate().signedBytes());
            assertTrue(back.certificate().signatureValid());
        }
    }

    @Test
    void signFillsInNameDigestAndHead() throws Exception {
        WebObject object = Samples.object(4);
        ObjectCertificate c = object.certificate();
        assertEquals(ObjectNames.objectGuid(Samples.PROVIDER.publicKey(), Samples.URL, ""), c.guid());
        assertEquals(c.guid(), c.nameGuid());
        assertArrayEquals(MessageDigest.getInstance("SHA-256").digest(object.response().body()), c.bodyDigest());
        assertArrayEquals(c.bodyDigest(), object.bodyDigest());
        assertEquals(4, c.version());
        assertEquals(Samples.REQUEST_MS, c.requestTimeMillis());
        assertEquals(Samples.RESPONSE_MS, c.responseTimeMillis());
        assertEquals(Samples.LIFETIME_S, c.freshnessLifetimeSeconds());
        assertEquals("max-age=600", c.headers().first("cache-control").orElseThrow());
    }

    @Test
    void signedBytesAreDeterministicAndCoverEveryField() {
        ObjectCertificate c = Samples.object(2).certificate();
        assertArrayEquals(c.signedBytes(), Samples.object(2).certificate().signedBytes());
        byte[] base = c.signedBytes();
        byte[] sig = c.signature();
        ObjectCertificate[] changed = {
            new ObjectCertificate(Samples.OTHER_PROVIDER.publicKey(), c.guid(), c.canonicalUrl(), c.variantKey(), c.version(), c.bodyDigest(), c.statusCode(), c.reasonPhrase(), c.headers(), c.requestTimeMillis(), c.responseTimeMillis(), c.freshnessLifetimeSeconds(), sig),
            new ObjectCertificate(c.provider(), c.guid().plus(io.riptide.core.id.Id.fromWords(0, 0, 1)), c.canonicalUrl(), c.variantKey(), c.version(), c.bodyDigest(), c.statusCode(), c.reasonPhrase(), c.headers(), c.requestTimeMillis(), c.responseTimeMillis(), c.freshnessLifetimeSeconds(), sig),
            new ObjectCertificate(c.provider(), c.guid(), c.canonicalUrl() + "x", c.variantKey(), c.version(), c.bodyDigest(), c.statusCode(), c.reasonPhrase(), c.headers(), c.requestTimeMillis(), c.responseTimeMillis(), c.freshnessLifetimeSeconds(), sig),
            new ObjectCertificate(c.provider(), c.guid(), c.canonicalUrl(), "br", c.version(), c.bodyDigest(), c.statusCode(), c.reasonPhrase(), c.headers(), c.requestTimeMillis(), c.responseTimeMillis(), c.freshnessLifetimeSeconds(), sig),
            new ObjectCertificate(c.provider(), c.guid(), c.canonicalUrl(), c.variantKey(), c.version() + 1, c.bodyDigest(), c.statusCode(), c.reasonPhrase(), c.headers(), c.requestTimeMillis(), c.responseTimeMillis(), c.freshnessLifetimeSeconds(), sig),
            new ObjectCertificate(c.provider(), c.guid(), c.canonicalUrl(), c.variantKey(), c.version(), new byte[32], c.statusCode(), c.reasonPhrase(), c.headers(), c.requestTimeMillis(), c.responseTimeMillis(), c.freshnessLifetimeSeconds(), sig),
            new ObjectCertificate(c.provider(), c.guid(), c.canonicalUrl(), c.variantKey(), c.version(), c.bodyDigest(), 203, c.reasonPhrase(), c.headers(), c.requestTimeMillis(), c.responseTimeMillis(), c.freshnessLifetimeSeconds(), sig),
            new ObjectCertificate(c.provider(), c.guid(), c.canonicalUrl(), c.variantKey(), c.version(), c.bodyDigest(), c.statusCode(), "Fine", c.headers(), c.requestTimeMillis(), c.responseTimeMillis(), c.freshnessLifetimeSeconds(), sig),
            new ObjectCertificate(c.provider(), c.guid(), c.canonicalUrl(), c.variantKey(), c.version(), c.bodyDigest(), c.statusCode(), c.reasonPhrase(), c.headers().with("Cache-Control", "max-age=6000"), c.requestTimeMillis(), c.responseTimeMillis(), c.freshnessLifetimeSeconds(), sig),
            new ObjectCertificate(c.provider(), c.guid(), c.canonicalUrl(), c.variantKey(), c.version(), c.bodyDigest(), c.statusCode(), c.reasonPhrase(), c.headers(), c.requestTimeMillis() - 1, c.responseTimeMillis(), c.freshnessLifetimeSeconds(), sig),
            new ObjectCertificate(c.provider(), c.guid(), c.canonicalUrl(), c.variantKey(), c.version(), c.bodyDigest(), c.statusCode(), c.reasonPhrase(), c.headers(), c.requestTimeMillis(), c.responseTimeMillis() + 1, c.freshnessLifetimeSeconds(), sig),
            new ObjectCertificate(c.provider(), c.guid(), c.canonicalUrl(), c.variantKey(), c.version(), c.bodyDigest(), c.statusCode(), c.reasonPhrase(), c.headers(), c.requestTimeMillis(), c.responseTimeMillis(), c.freshnessLifetimeSeconds() + 1, sig),
        };
        for (ObjectCertificate other : changed) {
            assertFalse(Arrays.equals(base, other.signedBytes()), other.toString());
            assertFalse(other.signatureValid(), other.toString());
        }
        // Moving a byte between adjacent text fields is a different encoding too.
        ObjectCertificate moved = new ObjectCertificate(c.provider(), c.guid(), "http://a/xb", "c", c.version(), c.bodyDigest(), c.statusCode(), c.reasonPhrase(), Headers.of("ab", "c"), c.requestTimeMillis(), c.responseTimeMillis(), c.freshnessLifetimeSeconds(), sig);
        ObjectCertificate unmoved = new ObjectCertificate(c.provider(), c.guid(), "http://a/x", "bc", c.version(), c.bodyDigest(), c.statusCode(), c.reasonPhrase(), Headers.of("a", "bc"), c.requestTimeMillis(), c.responseTimeMillis(), c.freshnessLifetimeSeconds(), sig);
        assertFalse(Arrays.equals(moved.signedBytes(), unmoved.signedBytes()));
    }

    @Test
    void recordsCopyTheirArrays() {
        byte[] body = Samples.body(16, 1);
        StoredResponse r = Samples.response(body);
        body[0] ^= 1;
        r.body()[1] ^= 1;
        assertArrayEquals(Samples.body(16, 1), r.body());
        assertThrows(java.nio.ReadOnlyBufferException.class, () -> r.bodyView().put(0, (byte) 0));
        ObjectCertificate c = Samples.object(1).certificate();
        c.signature()[0] ^= 1;
        c.bodyDigest()[0] ^= 1;
        assertTrue(c.signatureValid());
    }

    @Test
    void refusesInvalidFields() {
        ObjectCertificate c = Samples.object(1).certificate();
        assertThrows(IllegalArgumentException.class, () -> new StoredResponse(99, "", Headers.EMPTY, new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> new StoredResponse(600, "", Headers.EMPTY, new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> new StoredResponse(200, "OK", Headers.of("X", "\uDC00"), new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> ObjectCertificate.sign(Samples.PROVIDER, Samples.URL, "", 0,
                Samples.response(new byte[0]), 1, 2, 3));
        assertThrows(IllegalArgumentException.class, () -> ObjectCertificate.sign(Samples.PROVIDER, Samples.URL, "", 1,
                Samples.response(new byte[0]), 2, 1, 3));
        assertThrows(IllegalArgumentException.class, () -> ObjectCertificate.sign(Samples.PROVIDER, Samples.URL, "", 1,
                Samples.response(new byte[0]), 1, 2, -1));
        assertThrows(IllegalArgumentException.class, () -> c.withSignature(new byte[63]));
        // An object whose headers are not the certified ones cannot even be built.
        StoredResponse other = new StoredResponse(200, "OK", c.headers().with("Cache-Control", "max-age=6000"), new byte[64]);
        assertThrows(IllegalArgumentException.class, () -> new WebObject(c, other));
    }

    @Test
    void honoursTheBodyLimit() throws Exception {
        byte[] bytes = Samples.object(Samples.PROVIDER, Samples.URL, "", 1, Samples.body(1000, 1)).toBytes();
        assertEquals(1000, WebObject.fromBytes(bytes, 1000).response().bodyLength());
        ObjectFormatException e = assertThrows(ObjectFormatException.class, () -> WebObject.fromBytes(bytes, 999));
        assertTrue(e.getMessage().contains("exceeds limit 999"), e.getMessage());
    }

    @Test
    void everyTruncationAndExtensionIsRefused() {
        byte[] bytes = Samples.object(Samples.PROVIDER, Samples.URL, "v", 1, Samples.body(100, 1)).toBytes();
        for (int length = 0; length < bytes.length; length++) {
            byte[] cut = Arrays.copyOf(bytes, length);
            assertThrows(ObjectFormatException.class, () -> WebObject.fromBytes(cut), "length " + length);
        }
        assertThrows(ObjectFormatException.class, () -> WebObject.fromBytes(Arrays.copyOf(bytes, bytes.length + 1)));
        byte[] future = bytes.clone();
        future[0] = 2;
        ObjectFormatException e = assertThrows(ObjectFormatException.class, () -> WebObject.fromBytes(future));
        assertTrue(e.getMessage().contains("format 2"), e.getMessage());
    }

    @Test
    void aKeyThatIsNotACurvePointIsMalformedNotACrash() {
        byte[] bytes = Samples.object(1).toBytes();
        // The provider key starts after the format byte and its u32 length.
        for (int i = 0; i < 32; i++) {
            bytes[5 + i] = (byte) 0xff;
        }
        try {
            WebObject.fromBytes(bytes);
        } catch (ObjectFormatException expected) {
            return;
        }
        fail("an all-ones key should not decode (it is not a canonical curve point)");
    }

    /**
     * Random damage, a few thousand times with a fixed seed: decoding either refuses with the checked
     * exception or yields an object that verification rejects, unless the damage happened to leave
     * the bytes meaningfully unchanged.
     */
    @Test
    void randomMutationsAreRefusedOrRejected() {
        WebObject original = Samples.object(Samples.PROVIDER, Samples.URL, "gzip", 2, Samples.body(200, 9));
        byte[] bytes = original.toBytes();
        SplittableRandom random = new SplittableRandom(20_240_605L);
        int refused = 0;
        int rejected = 0;
        for (int trial = 0; trial < 5_000; trial++) {
            byte[] mutated = mutate(bytes, random);
            ObjectVerifier verifier = new ObjectVerifier(java.util.Set.of(Samples.PROVIDER.publicKey()), new VersionFloor(8));
            ReplicaVerification result;
            try {
                result = verifier.verifyReplica(mutated, original.certificate().guid());
            } catch (RuntimeException e) {
                throw new AssertionError("trial " + trial + " leaked " + e, e);
            }
            if (result.ok()) {
                assertEquals(original, result.object().orElseThrow(), "trial " + trial + " accepted a changed object");
            } else if (result.verification().rejectReason().orElseThrow() == RejectReason.MALFORMED) {
                refused++;
            } else {
                rejected++;
            }
        }
        assertTrue(refused > 1000 && rejected > 1000, "refused " + refused + ", rejected " + rejected);
    }

    private static byte[] mutate(byte[] bytes, SplittableRandom random) {
        switch (random.nextInt(4)) {
            case 0: { // flip one to four bytes
                byte[] out = bytes.clone();
                for (int i = 1 + random.nextInt(4); i > 0; i--) {
                    out[random.nextInt(out.length)] ^= (byte) (1 + random.nextInt(255));
                }
                return out;
            }
            case 1: // truncate
                return Arrays.copyOf(bytes, random.nextInt(bytes.length));
            case 2: { // overwrite a 4-byte run (hits length fields with large or negative values)
                byte[] out = bytes.clone();
                int at = random.nextInt(out.length - 4);
                ByteBuffer.wrap(out).putInt(at, random.nextInt());
                return out;
            }
            default: { // insert or delete a byte
                int at = random.nextInt(bytes.length);
                if (random.nextBoolean()) {
                    byte[] out = new byte[bytes.length + 1];
                    System.arraycopy(bytes, 0, out, 0, at);
                    out[at] = (byte) random.nextInt(256);
                    System.arraycopy(bytes, at, out, at + 1, bytes.length - at);
                    return out;
                }
                byte[] out = new byte[bytes.length - 1];
                System.arraycopy(bytes, 0, out, 0, at);
                System.arraycopy(bytes, at + 1, out, at, bytes.length - at - 1);
                return out;
            }
        }
    }

    @Test
    void garbageIsRefused() {
        SplittableRandom random = new SplittableRandom(7);
        for (int trial = 0; trial < 2_000; trial++) {
            byte[] junk = new byte[random.nextInt(600)];
            random.nextBytes(junk);
            if (junk.length > 0 && random.nextBoolean()) {
                junk[0] = WebObject.FORMAT;
            }
            assertThrows(ObjectFormatException.class, () -> WebObject.fromBytes(junk));
            assertThrows(ObjectFormatException.class, () -> Heartbeat.fromBytes(junk));
        }
    }
}
