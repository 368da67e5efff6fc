package io.riptide.proxy.cache;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.crypto.VerifiedSignatures;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Headers;
import io.riptide.core.http.VariantKey;
import io.riptide.core.http.Variants;
import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.KeyRecords;
import io.riptide.core.object.KeyRevocation;
import io.riptide.core.object.ObjectFormatException;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.ObjectVerifier;
import io.riptide.core.object.ProviderTrust;
import io.riptide.core.object.RejectReason;
import io.riptide.core.object.VariantRecord;
import io.riptide.core.object.Verification;
import io.riptide.core.object.VersionFloor;
import java.util.List;

/**
 * The verify stage's work: decide whether the bytes a replica sent for a GUID may be used. A copy must
 * decode, be signed by a trusted provider for exactly that GUID, carry the certified body and be no
 * older than a version already seen (the {@link VersionFloor}); its heartbeat counts only if it
 * verifies too. At a URL's base GUID a verified variant record names the request's variant to read
 * next. Key records a replica gave way to (a provider key's revocation) are learned, and the read is
 * refused as {@link RejectReason#REVOKED_KEY}; from then on whatever the revoked key signed is refused
 * too, and objects signed by a key a trusted key certified are accepted. Storage nodes are untrusted:
 * anything else is refused with its reason. Thread-safe (the stage
 * runs it on several threads); reads no clock, so freshness is judged on the loop afterwards.
 *
 * <p>The proxy reads the same versions of hot URLs again and again, so signatures it already verified
 * are remembered ({@link VerifiedSignatures}): a repeat costs a SHA-256 of the signed bytes, not an
 * Ed25519 verification. The body is still digested and compared on every read.
 */
final class ReplicaCheck {
    /** What the bytes came to. */
    sealed interface Checked permits Copy, Record, Mismatch, Refused {
    }

    /** A verified copy that answers the request's variant; {@code heartbeatValid} if its heartbeat verified too. */
    record Copy(CachedCopy copy, boolean heartbeatValid) implements Checked {
    }

    /**
     * A verified variant record: the request's variant is {@code variant}, at {@code guid}; the record
     * is {@code version}, naming variants by {@code varyFields} (what the memory tier keeps of it).
     */
    record Record(Id guid, VariantKey variant, long version, List<String> varyFields) implements Checked {
    }

    /** A genuine copy whose own {@code Vary} does not select it for this request (RFC 9111 §4.1). */
    record Mismatch() implements Checked {
    }

    /** Refused: tampered, forged, an older version, or not decodable. */
    record Refused(RejectReason reason, String message) implements Checked, Verified {
    }

    /**
     * What the signatures say of a replica's bytes, whoever asked: the costly half of a check (on the
     * verify stage), shared by every request that waited on the same read. {@link #select} then
     * answers each request from it.
     */
    sealed interface Verified permits VerifiedObject, VerifiedRecord, Refused {
    }

    /** A genuine copy; {@code heartbeatValid} if its heartbeat verified too. */
    record VerifiedObject(CachedCopy copy, boolean heartbeatValid) implements Verified {
    }

    /** A genuine variant record. */
    record VerifiedRecord(VariantRecord record) implements Verified {
    }

    private final VerifiedSignatures signatures = new VerifiedSignatures();
    private final ObjectVerifier verifier;
    private final int maxBodyBytes;

    ReplicaCheck(List<PublicKey> providers, int maxBodyBytes) {
        this(ProviderTrust.of(java.util.Set.copyOf(providers)), maxBodyBytes);
    }

    /** A check trusting what {@code trust} trusts at each call (it learns rotations and revocations met in reads). */
    ReplicaCheck(ProviderTrust trust, int maxBodyBytes) {
        this.verifier = new ObjectVerifier(trust, new VersionFloor(VersionFloor.DEFAULT_CAPACITY), maxBodyBytes, signatures);
        this.maxBodyBytes = maxBodyBytes;
    }

    /** The keys this check trusts and the revocations it knows. */
    ProviderTrust trust() {
        return verifier.trust();
    }

    /**
     * Learns the key records a replica gave way to (or a provider's key-records GUID holds) and says
     * what they come to: {@link RejectReason#REVOKED_KEY} if they revoke a key (the object named under
     * it is gone), else why they were refused. Never a copy to serve.
     */
    Refused learn(byte[] data) {
        KeyRecords records;
        try {
            records = KeyRecords.fromBytes(data);
        } catch (ObjectFormatException e) {
            return new Refused(RejectReason.MALFORMED, e.getMessage());
        }
        List<Verification> verdicts = trust().learn(records);
        List<PublicKey> revoked = records.revocations().stream().map(KeyRevocation::revokedKey)
                .filter(trust()::isRevoked).toList();
        if (!revoked.isEmpty()) {
            return new Refused(RejectReason.REVOKED_KEY, "the replica gave way to the revocation of " + revoked);
        }
        return verdicts.stream().filter(v -> v instanceof Verification.Rejected).map(v -> (Verification.Rejected) v)
                .map(r -> new Refused(r.reason(), r.message())).findFirst()
                .orElse(new Refused(RejectReason.UNTRUSTED_PROVIDER, "key records that revoke no key trusted here"));
    }

    /** The memo of signatures this check has verified, for its hit and full-verification counts. */
    VerifiedSignatures signatures() {
        return signatures;
    }

    /**
     * Checks {@code data}, read for {@code guid} under {@code provider}'s name for {@code url}, which
     * the response selected by {@code expected} should answer ({@link VariantKey#NONE} at the base GUID).
     */
    Checked check(PublicKey provider, CanonicalUrl url, Id guid, VariantKey expected, Headers request, byte[] data) {
        return select(verify(guid, expected, data), provider, url, expected, request);
    }

    /** The signatures' verdict on {@code data}, read for {@code guid} (a variant's, unless {@code expected} is NONE). */
    Verified verify(Id guid, VariantKey expected, byte[] data) {
        if (KeyRecords.isKeyRecords(data)) {
            return learn(data);
        }
        if (VariantRecord.isVariantRecord(data)) {
            if (!expected.equals(VariantKey.NONE)) {
                return new Refused(RejectReason.WRONG_GUID, "a variant record where a variant's copy belongs");
            }
            VariantRecord record;
            try {
                record = VariantRecord.fromBytes(data);
            } catch (ObjectFormatException e) {
                return new Refused(RejectReason.MALFORMED, e.getMessage());
            }
            Verification v = verifier.verifyVariantRecord(record, guid);
            return v instanceof Verification.Rejected r ? new Refused(r.reason(), r.message()) : new VerifiedRecord(record);
        }
        CachedCopy copy;
        try {
            copy = CachedCopy.fromBytes(data, maxBodyBytes);
        } catch (ObjectFormatException e) {
            return new Refused(RejectReason.MALFORMED, e.getMessage());
        }
        Verification v = verifier.verify(copy.object(), guid);
        if (v instanceof Verification.Rejected r) {
            return new Refused(r.reason(), r.message());
        }
        boolean heartbeat = copy.heartbeat().isPresent()
                && verifier.verifyHeartbeat(copy.heartbeat().get(), copy.object().certificate()).ok();
        return new VerifiedObject(copy, heartbeat);
    }

    /**
     * A copy a gateway sent with its answer ({@code InsertReply.copy}), checked for the GUID it names:
     * the variant {@code request} selects by the copy's own {@code Vary}, and the verdict on the copy
     * as a replica of that GUID.
     */
    record Carried(Id guid, VariantKey expected, Verified verified) {
    }

    /**
     * Checks a copy a gateway sent for {@code url} under {@code provider}'s name, claimed to be at
     * {@code claimed}. Which variant it should be follows from its own {@code Vary} and the request,
     * as a variant record would say; the signature then binds the copy to that GUID, so a copy of
     * another variant, URL or provider is refused however the reply names it.
     */
    Carried verifyCarried(PublicKey provider, CanonicalUrl url, Id claimed, Headers request, byte[] data) {
        CachedCopy copy;
        try {
            copy = CachedCopy.fromBytes(data, maxBodyBytes);
        } catch (ObjectFormatException e) {
            return new Carried(claimed, VariantKey.NONE, new Refused(RejectReason.MALFORMED, e.getMessage()));
        }
        VariantKey expected = Variants.key(copy.object().certificate().headers(), request).orElse(null);
        if (expected == null) {
            return new Carried(claimed, VariantKey.NONE, new Refused(RejectReason.WRONG_GUID, "a copy that varies on *"));
        }
        Id guid = ObjectNames.objectGuid(provider, url.value(), expected.equals(VariantKey.NONE) ? "" : expected.toString());
        if (!guid.equals(claimed)) {
            return new Carried(claimed, expected, new Refused(RejectReason.WRONG_GUID,
                    "the copy sent is not the one this request selects"));
        }
        return new Carried(guid, expected, verify(guid, expected, data));
    }

    /** What a verified replica is to one request: cheap header comparisons, done per request on the loop. */
    static Checked select(Verified verified, PublicKey provider, CanonicalUrl url, VariantKey expected, Headers request) {
        if (verified instanceof Refused r) {
            return r;
        }
        if (verified instanceof VerifiedRecord v) {
            VariantRecord record = v.record();
            // A record never names "*" (its constructor refuses it), so every request has a key.
            VariantKey variant = Variants.key(record.varyFields(), request).orElseThrow();
            // The record's own provider names the variant: a record vouches only for its signer's copies.
            return new Record(ObjectNames.objectGuid(provider, url.value(), variant.toString()), variant, record.version(),
                    record.varyFields());
        }
        VerifiedObject o = (VerifiedObject) verified;
        if (!Variants.matches(o.copy().object().certificate().headers(), expected, request)) {
            // Genuine, but its own Vary does not select it for this request: say, the origin changed its
            // Vary after the record was signed. Never serve another request's variant.
            return new Mismatch();
        }
        return new Copy(o.copy(), o.heartbeatValid());
    }
}
