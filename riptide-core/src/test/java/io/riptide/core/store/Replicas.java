package io.riptide.core.store;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.StoredResponse;
import io.riptide.core.object.WebObject;
import java.util.Arrays;
import java.util.SplittableRandom;

/** Replicas as the gateway stores them (signed cached copies), from fixed seeds. */
final class Replicas {
    static final SigningKey PROVIDER = key(7);
    static final long REQUEST_MS = 1_700_000_000_000L;

    private Replicas() {
    }

    static SigningKey key(int seed) {
        byte[] s = new byte[32];
        Arrays.fill(s, (byte) seed);
        return SigningKey.fromSeed(s);
    }

    static byte[] body(int length, long seed) {
        byte[] b = new byte[length];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }

    static String url(int i) {
        return "http://example.com/page/" + i;
    }

    static StoredResponse response(byte[] body, long version) {
        return new StoredResponse(200, "OK", Headers.of("Content-Type", "text/html", "ETag", "\"v" + version + "\""), body);
    }

    /** Version {@code version} of {@code url} with {@code body}, signed. */
    static CachedCopy copy(String url, long version, byte[] body) {
        StoredResponse response = response(body, version);
        ObjectCertificate cert = ObjectCertificate.sign(PROVIDER, url, "", version, response, REQUEST_MS,
                REQUEST_MS + 10, 600);
        return CachedCopy.of(new WebObject(cert, response));
    }

    /** A copy whose certificate announces {@code announced} as its body's digest, carrying {@code body}. */
    static CachedCopy lying(String url, byte[] announced, byte[] body) {
        ObjectCertificate honest = copy(url, 1, body).object().certificate();
        ObjectCertificate cert = new ObjectCertificate(honest.provider(), honest.guid(), url, "", 1, announced,
                honest.statusCode(), honest.reasonPhrase(), honest.headers(), honest.requestTimeMillis(),
                honest.responseTimeMillis(), honest.freshnessLifetimeSeconds(), honest.signature());
        return CachedCopy.of(WebObject.of(cert, body));
    }

    static Id guid(CachedCopy copy) {
        return copy.object().certificate().guid();
    }

    static byte[] sha256(byte[] data) {
        return ReplicaHead.sha256(data, 0, data.length);
    }
}
