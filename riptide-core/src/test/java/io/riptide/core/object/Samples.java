package io.riptide.core.object;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.Headers;
import java.util.Arrays;
import java.util.SplittableRandom;

/** Keys, responses and objects for the object tests, all from fixed seeds. */
final class Samples {
    static final String URL = "http://example.com/index.html";
    static final long REQUEST_MS = 1_700_000_000_000L;
    static final long RESPONSE_MS = REQUEST_MS + 120;
    static final long LIFETIME_S = 600;

    private Samples() {
    }

    static SigningKey key(int seed) {
        byte[] s = new byte[32];
        Arrays.fill(s, (byte) seed);
        return SigningKey.fromSeed(s);
    }

    static final SigningKey PROVIDER = key(1);
    static final SigningKey OTHER_PROVIDER = key(2);

    static byte[] body(int length, long seed) {
        byte[] b = new byte[length];
        new SplittableRandom(seed).nextBytes(b);
        return b;
    }

    static StoredResponse response(byte[] body) {
        return new StoredResponse(200, "OK", Headers.of(
                "Content-Type", "text/html; charset=utf-8",
                "Cache-Control", "max-age=600",
                "ETag", "\"v1\""), body);
    }

    static WebObject object(SigningKey provider, String url, String variant, long version, byte[] body) {
        StoredResponse response = response(body);
        return new WebObject(ObjectCertificate.sign(provider, url, variant, version, response,
                REQUEST_MS, RESPONSE_MS, LIFETIME_S), response);
    }

    static WebObject object(long version) {
        return object(PROVIDER, URL, "", version, body(64, version));
    }
}
