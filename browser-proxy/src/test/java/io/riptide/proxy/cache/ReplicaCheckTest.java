package io.riptide.proxy.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Headers;
import io.riptide.core.http.VariantKey;
import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.Heartbeat;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.RejectReason;
import io.riptide.core.object.StoredResponse;
import io.riptide.core.object.WebObject;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The verify stage remembers the signatures it checked: a hot copy read again skips Ed25519, not the body check. */
class ReplicaCheckTest {
    private static final CanonicalUrl URL = CanonicalUrl.of("http://example.com/hot.js");
    private static final long REQUEST_MS = 1_700_000_000_000L;

    private static SigningKey provider() {
        byte[] seed = new byte[32];
        Arrays.fill(seed, (byte) 3);
        return SigningKey.fromSeed(seed);
    }

    @Test
    void aCopyReadAgainIsCheckedFromTheMemoButATamperedBodyIsStillRefused() {
        SigningKey provider = provider();
        byte[] body = new byte[10_240];
        Arrays.fill(body, (byte) 'x');
        StoredResponse response = new StoredResponse(200, "OK", Headers.of("Cache-Control", "max-age=60"), body);
        WebObject object = new WebObject(ObjectCertificate.sign(provider, URL.value(), "", 4, response,
                REQUEST_MS, REQUEST_MS + 50, 60), response);
        Id guid = object.certificate().guid();
        byte[] stored = CachedCopy.of(object)
                .withHeartbeat(Heartbeat.sign(provider, guid, 4, REQUEST_MS + 30_000)).toBytes();

        ReplicaCheck check = new ReplicaCheck(List.of(provider.publicKey()), WebObject.DEFAULT_MAX_BODY_BYTES);
        for (int i = 0; i < 3; i++) {
            ReplicaCheck.Checked checked = check.check(provider.publicKey(), URL, guid, VariantKey.NONE, Headers.EMPTY,
                    stored);
            assertTrue(assertInstanceOf(ReplicaCheck.Copy.class, checked).heartbeatValid());
        }
        // The certificate and the heartbeat once each in full; the two later reads from the memo.
        assertEquals(2, check.signatures().fullVerifications());
        assertEquals(4, check.signatures().hits());

        byte[] tampered = CachedCopy.of(WebObject.of(object.certificate(), new byte[10_240])).toBytes();
        ReplicaCheck.Checked refused = check.check(provider.publicKey(), URL, guid, VariantKey.NONE, Headers.EMPTY,
                tampered);
        assertEquals(RejectReason.BODY_DIGEST_MISMATCH, assertInstanceOf(ReplicaCheck.Refused.class, refused).reason());
        assertEquals(2, check.signatures().fullVerifications());
    }

    /** A gzip variant of the URL, as a gateway stores it for a request that accepts gzip. */
    private static byte[] gzipVariant(SigningKey provider) {
        Headers request = Headers.of("Accept-Encoding", "gzip");
        Headers headers = Headers.of("Cache-Control", "max-age=60", "Vary", "Accept-Encoding", "Content-Encoding", "gzip");
        VariantKey key = io.riptide.core.http.Variants.key(headers, request).orElseThrow();
        StoredResponse response = new StoredResponse(200, "OK", headers, new byte[] {1, 2, 3});
        return CachedCopy.of(new WebObject(ObjectCertificate.sign(provider, URL.value(), key.toString(), 1, response,
                REQUEST_MS, REQUEST_MS, 60), response)).toBytes();
    }

    @Test
    void aCopyAGatewaySendsIsTheVariantTheRequestSelectsOrItIsRefused() throws Exception {
        SigningKey provider = provider();
        byte[] copy = gzipVariant(provider);
        Id variantGuid = CachedCopy.fromBytes(copy, 1024).object().certificate().guid();
        ReplicaCheck check = new ReplicaCheck(List.of(provider.publicKey()), WebObject.DEFAULT_MAX_BODY_BYTES);

        ReplicaCheck.Carried gzip = check.verifyCarried(provider.publicKey(), URL, variantGuid,
                Headers.of("Accept-Encoding", "gzip"), copy);
        assertEquals(variantGuid, gzip.guid());
        assertInstanceOf(ReplicaCheck.Copy.class, ReplicaCheck.select(gzip.verified(), provider.publicKey(), URL,
                gzip.expected(), Headers.of("Accept-Encoding", "gzip")));

        // A request that does not accept gzip selects another variant: the copy is refused, however the reply names it.
        ReplicaCheck.Carried identity = check.verifyCarried(provider.publicKey(), URL, variantGuid, Headers.EMPTY, copy);
        assertEquals(RejectReason.WRONG_GUID, assertInstanceOf(ReplicaCheck.Refused.class, identity.verified()).reason());
        // Nor is a copy named as another URL's.
        ReplicaCheck.Carried elsewhere = check.verifyCarried(provider.publicKey(), CanonicalUrl.of("http://example.com/other.js"),
                variantGuid, Headers.of("Accept-Encoding", "gzip"), copy);
        assertEquals(RejectReason.WRONG_GUID, assertInstanceOf(ReplicaCheck.Refused.class, elsewhere.verified()).reason());
        // And a copy signed by a provider this proxy does not trust fails its signature check.
        byte[] seed = new byte[32];
        Arrays.fill(seed, (byte) 9);
        SigningKey stranger = SigningKey.fromSeed(seed);
        byte[] forged = gzipVariant(stranger);
        ReplicaCheck.Carried foreign = check.verifyCarried(provider.publicKey(), URL, variantGuid,
                Headers.of("Accept-Encoding", "gzip"), forged);
        assertInstanceOf(ReplicaCheck.Refused.class, foreign.verified());
    }

    private static byte[] copyBy(SigningKey key) {
        StoredResponse response = new StoredResponse(200, "OK", Headers.of("Cache-Control", "max-age=60"), new byte[] {7});
        return CachedCopy.of(new WebObject(ObjectCertificate.sign(key, URL.value(), "", 1, response,
                REQUEST_MS, REQUEST_MS, 60), response)).toBytes();
    }

    @Test
    void aRotationMakesTheNewKeyTrustedAndARevocationMetInPlaceOfAReplicaEndsTheOldOne() {
        SigningKey old = provider();
        byte[] seed = new byte[32];
        Arrays.fill(seed, (byte) 4);
        SigningKey next = SigningKey.fromSeed(seed);
        Id oldGuid = io.riptide.core.object.ObjectNames.objectGuid(old.publicKey(), URL.value(), "");
        Id newGuid = io.riptide.core.object.ObjectNames.objectGuid(next.publicKey(), URL.value(), "");
        ReplicaCheck check = new ReplicaCheck(List.of(old.publicKey()), WebObject.DEFAULT_MAX_BODY_BYTES);
        assertEquals(RejectReason.UNTRUSTED_PROVIDER, assertInstanceOf(ReplicaCheck.Refused.class,
                check.check(next.publicKey(), URL, newGuid, VariantKey.NONE, Headers.EMPTY, copyBy(next))).reason());

        io.riptide.core.object.KeyRecords rotation = new io.riptide.core.object.KeyRecords(
                List.of(io.riptide.core.object.KeyRotation.sign(old, next.publicKey(), 1, REQUEST_MS)), List.of());
        check.learn(rotation.toBytes());
        assertInstanceOf(ReplicaCheck.Copy.class, check.check(next.publicKey(), URL, newGuid, VariantKey.NONE, Headers.EMPTY,
                copyBy(next)));
        assertInstanceOf(ReplicaCheck.Copy.class, check.check(old.publicKey(), URL, oldGuid, VariantKey.NONE, Headers.EMPTY,
                copyBy(old)), "the old key still works");

        byte[] revocation = rotation.with(new io.riptide.core.object.KeyRecords(List.of(),
                List.of(io.riptide.core.object.KeyRevocation.sign(old, old.publicKey(), REQUEST_MS + 1)))).toBytes();
        ReplicaCheck.Refused met = assertInstanceOf(ReplicaCheck.Refused.class,
                check.check(old.publicKey(), URL, oldGuid, VariantKey.NONE, Headers.EMPTY, revocation));
        assertEquals(RejectReason.REVOKED_KEY, met.reason());
        assertEquals(RejectReason.REVOKED_KEY, assertInstanceOf(ReplicaCheck.Refused.class,
                check.check(old.publicKey(), URL, oldGuid, VariantKey.NONE, Headers.EMPTY, copyBy(old))).reason(),
                "a copy the revoked key signed is refused from then on");
        assertInstanceOf(ReplicaCheck.Copy.class, check.check(next.publicKey(), URL, newGuid, VariantKey.NONE, Headers.EMPTY,
                copyBy(next)));
    }
}
