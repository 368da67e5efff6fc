package io.riptide.benchmarks.object;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.ObjectVerifier;
import io.riptide.core.object.ReplicaVerification;
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
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/** Certifying a web object at the gateway and verifying it at the proxy, for a 1 KB and a 100 KB body. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class ObjectSigningBenchmark {
    private static final long SEED = 20_240_605L;
    private static final String URL = "http://example.com/static/app.js";
    private static final long REQUEST_MS = 1_700_000_000_000L;

    /** Body size in bytes. */
    @Param({"1024", "102400"})
    public int bodyBytes;

    private SigningKey provider;
    private StoredResponse response;
    private WebObject object;
    private byte[] stored;
    private Id guid;
    private ObjectVerifier verifier;

    @Setup(Level.Trial)
    public void setUp() {
        byte[] seed = new byte[32];
        Arrays.fill(seed, (byte) 7);
        provider = SigningKey.fromSeed(seed);
        byte[] body = new byte[bodyBytes];
        new SplittableRandom(SEED).nextBytes(body);
        // A realistic head: the headers are part of the signed bytes.
        response = new StoredResponse(200, "OK", Headers.of(
                "Content-Type", "application/javascript",
                "Cache-Control", "public, max-age=3600",
                "ETag", "\"5f3a-1a2b3c\"",
                "Last-Modified", "Tue, 04 Jun 2024 10:00:00 GMT",
                "Date", "Wed, 05 Jun 2024 09:00:00 GMT"), body);
        object = new WebObject(sign(), response);
        stored = object.toBytes();
        guid = object.certificate().guid();
        verifier = new ObjectVerifier(Set.of(provider.publicKey()), new VersionFloor(VersionFloor.DEFAULT_CAPACITY));
        // Fail fast rather than time a verifier that rejects (and so may stop early).
        Verification v = verifier.verify(object, guid);
        if (!v.ok() || !verifier.verifyReplica(stored, guid).ok()) {
            throw new IllegalStateException("the sample object does not verify: " + v.message());
        }
    }

    /** Gateway side: SHA-256 of the body, the signed bytes, one Ed25519 signature. */
    @Benchmark
    public ObjectCertificate sign() {
        return ObjectCertificate.sign(provider, URL, "", 1, response, REQUEST_MS, REQUEST_MS + 80, 3600);
    }

    /** Proxy side: the name hash, the signed bytes, one Ed25519 verification, SHA-256 of the body. */
    @Benchmark
    public Verification verify() {
        return verifier.verify(object, guid);
    }

    /** Proxy side from a replica's bytes: decoding (two body copies) and then {@link #verify()}. */
    @Benchmark
    public ReplicaVerification decodeAndVerify() {
        return verifier.verifyReplica(stored, guid);
    }
}
