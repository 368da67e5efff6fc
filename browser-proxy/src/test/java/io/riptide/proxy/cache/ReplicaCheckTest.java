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
}
