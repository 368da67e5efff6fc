package io.riptide.benchmarks.object;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.crypto.VerifiedSignatures;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.ObjectVerifier;
import io.riptide.core.object.StoredResponse;
import io.riptide.core.object.Verification;
import io.riptide.core.object.VersionFloor;
import io.riptide.core.object.WebObject;
import java.util.Arrays;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The proxy verifying the same version of a 10 KB object again, as it does on every hit of a hot URL:
 * with no memo (an Ed25519 verification each time) and with a {@link VerifiedSignatures} memo that
 * already holds the signature (a SHA-256 of the signed bytes and a lookup). The body's SHA-256 is
 * computed either way in {@code verify}; {@code verifyCertificate} leaves it out to show the
 * signature's share alone.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class VerifiedSignaturesBenchmark {
    private static final long SEED = 20_240_605L;
    private static final String URL = "http://example.com/static/app.js";
    private static final long REQUEST_MS = 1_700_000_000_000L;
    private static final int BODY_BYTES = 10 * 1024;

    private WebObject object;
    private Id guid;
    private ObjectVerifier plain;
    private ObjectVerifier memoised;

    @Setup(Level.Trial)
    public void setUp() {
        byte[] seed = new byte[32];
        Arrays.fill(seed, (byte) 7);
        SigningKey provider = SigningKey.fromSeed(seed);
        byte[] body = new byte[BODY_BYTES];
        new SplittableRandom(SEED).nextBytes(body);
        // The same head as ObjectSigningBenchmark: the headers are part of the signed bytes.
        StoredResponse response = new StoredResponse(200, "OK", Headers.of(
                "Content-Type", "application/javascript",
                "Cache-Control", "public, max-age=3600",
                "ETag", "\"5f3a-1a2b3c\"",
                "Last-Modified", "Tue, 04 Jun 2024 10:00:00 GMT",
                "Date", "Wed, 05 Jun 2024 09:00:00 GMT"), body);
        object = new WebObject(ObjectCertificate.sign(provider, URL, "", 1, response, REQUEST_MS, REQUEST_MS + 80, 3600),
                response);
        guid = object.certificate().guid();
        plain = new ObjectVerifier(Set.of(provider.publicKey()), new VersionFloor(VersionFloor.DEFAULT_CAPACITY));
        VerifiedSignatures memo = new VerifiedSignatures();
        memoised = new ObjectVerifier(Set.of(provider.publicKey()), new VersionFloor(VersionFloor.DEFAULT_CAPACITY),
                WebObject.DEFAULT_MAX_BODY_BYTES, memo);
        // Fail fast rather than time a verifier that rejects; this also puts the signature in the memo.
        for (ObjectVerifier v : new ObjectVerifier[] {plain, memoised, memoised}) {
            Verification verdict = v.verify(object, guid);
            if (!verdict.ok()) {
                throw new IllegalStateException("the sample object does not verify: " + verdict.message());
            }
        }
        if (memo.hits() != 1 || memo.fullVerifications() != 1) {
            throw new IllegalStateException("the memo is not being used: " + memo);
        }
    }

    /** Name hash, signed bytes, one Ed25519 verification, SHA-256 of the body. */
    @Benchmark
    public Verification verifyWithoutMemo() {
        return plain.verify(object, guid);
    }

    /** Name hash, signed bytes, SHA-256 of them and a memo lookup, SHA-256 of the body. */
    @Benchmark
    public Verification verifyWithMemo() {
        return memoised.verify(object, guid);
    }

    /** The certificate alone, no memo: name hash, signed bytes, one Ed25519 verification. */
    @Benchmark
    public Verification verifyCertificateWithoutMemo() {
        return plain.verifyCertificate(object.certificate(), guid);
    }

    /** The certificate alone from the memo: name hash, signed bytes, their SHA-256, a lookup. */
    @Benchmark
    public Verification verifyCertificateWithMemo() {
        return memoised.verifyCertificate(object.certificate(), guid);
    }
}
