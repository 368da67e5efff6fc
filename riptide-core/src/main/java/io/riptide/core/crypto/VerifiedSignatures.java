package io.riptide.core.crypto;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.concurrent.atomic.LongAdder;

/**
 * A bounded memo of Ed25519 signatures this process has already verified, so that checking the same
 * signed statement again (the proxy reads the same version of a hot URL over and over) costs a
 * SHA-256 of the signed bytes and a lookup instead of an Ed25519 verification (tens of µs).
 *
 * <p>An entry is keyed by SHA-256 over the public key, the signature and the signed bytes, so it
 * stands for exactly one (key, signed bytes, signature) triple: any change to what is signed, to the
 * signature or to the key misses and is verified in full. Ed25519 verification is a deterministic
 * function of those three, so a hit answers as the verification would (short of a SHA-256
 * collision). Only successes are remembered: a failure is verified in full every time it comes back.
 *
 * <p>Bounded in entries (Caffeine's W-TinyLFU, so hot statements stay while one-off ones are
 * dropped); forgetting one only costs its next verification in full. Thread-safe; maintenance runs
 * on the calling thread, so no background thread is started.
 */
public final class VerifiedSignatures {
    /**
     * The default bound: 64 Ki statements, room for the hot versions of tens of thousands of URLs
     * with their heartbeats and variant records, at about 130 bytes an entry
     * (the digest, Caffeine's node and its frequency sketch; measured), so about 9 MB when full. The
     * same figure as {@code VersionFloor.DEFAULT_CAPACITY}, which tracks the same GUIDs.
     */
    public static final int DEFAULT_MAX_ENTRIES = 1 << 16;

    private final int maxEntries;
    private final Cache<Digest, Boolean> verified;
    private final LongAdder hits = new LongAdder();
    private final LongAdder fullVerifications = new LongAdder();

    /** A memo of at most {@link #DEFAULT_MAX_ENTRIES} signatures. */
    public VerifiedSignatures() {
        this(DEFAULT_MAX_ENTRIES);
    }

    /** A memo of at most {@code maxEntries} signatures. */
    public VerifiedSignatures(int maxEntries) {
        if (maxEntries < 1) {
            throw new IllegalArgumentException("a signature memo needs room for one entry, got " + maxEntries);
        }
        this.maxEntries = maxEntries;
        this.verified = Caffeine.newBuilder()
                .maximumSize(maxEntries)
                .executor(Runnable::run)
                .build();
    }

    /**
     * Whether {@code signature} is {@code key}'s signature over {@code signedBytes}, as
     * {@link PublicKey#verify} answers; from the memo if this exact triple verified before, else
     * verified in full (and remembered if it verified). Never throws for a bad signature.
     */
    public boolean verify(PublicKey key, byte[] signedBytes, byte[] signature) {
        if (signature == null || signature.length != SigningKey.SIGNATURE_BYTES) {
            // PublicKey.verify refuses these without any work: nothing to save.
            return false;
        }
        Digest digest = digest(key, signedBytes, signature);
        if (verified.getIfPresent(digest) != null) {
            hits.increment();
            return true;
        }
        // Not under a cache lock: two threads meeting the same new signature both verify it, which is
        // cheaper than making every other lookup wait on an Ed25519 verification.
        fullVerifications.increment();
        boolean valid = key.verify(signedBytes, signature);
        if (valid) {
            verified.put(digest, Boolean.TRUE);
        }
        return valid;
    }

    /** Verifications answered from the memo. */
    public long hits() {
        return hits.sum();
    }

    /** Verifications done in full with Ed25519 (successful or not). */
    public long fullVerifications() {
        return fullVerifications.sum();
    }

    /** Signatures remembered now, after any pending eviction; never more than {@link #maxEntries()}. */
    public long size() {
        verified.cleanUp();
        return verified.estimatedSize();
    }

    public int maxEntries() {
        return maxEntries;
    }

    @Override
    public String toString() {
        return "VerifiedSignatures[" + size() + "/" + maxEntries + ", " + hits() + " hits, "
                + fullVerifications() + " full verifications]";
    }

    private static Digest digest(PublicKey key, byte[] signedBytes, byte[] signature) {
        MessageDigest sha256;
        try {
            sha256 = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
        // The fixed-length fields first, then the signed bytes: the input parses one way only, so no
        // two triples hash the same input, without a length prefix.
        sha256.update(key.toBytes());
        sha256.update(signature);
        sha256.update(signedBytes);
        ByteBuffer d = ByteBuffer.wrap(sha256.digest());
        return new Digest(d.getLong(), d.getLong(), d.getLong(), d.getLong());
    }

    // The 32-byte SHA-256 as four longs: smaller than an array and its wrapper, and compared in place.
    private record Digest(long a, long b, long c, long d) {
        @Override
        public int hashCode() {
            // Already uniformly distributed.
            return (int) a;
        }
    }
}
