package io.riptide.core.object;

import static io.riptide.core.object.RejectReason.BAD_SIGNATURE;
import static io.riptide.core.object.RejectReason.BODY_DIGEST_MISMATCH;
import static io.riptide.core.object.RejectReason.MALFORMED;
import static io.riptide.core.object.RejectReason.REVOKED_KEY;
import static io.riptide.core.object.RejectReason.STALE_VERSION;
import static io.riptide.core.object.RejectReason.UNTRUSTED_PROVIDER;
import static io.riptide.core.object.RejectReason.WRONG_GUID;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.crypto.VerifiedSignatures;
import io.riptide.core.id.Id;
import java.security.MessageDigest;
import java.util.Optional;
import java.util.Set;

/**
 * Decides whether a replica fetched from an untrusted storage node may be served: signed by a
 * trusted provider, the object asked for, its body the certified one, and no older than a version
 * already seen certified current (the {@link VersionFloor}, which every accepted object or
 * heartbeat raises, and which counts the replays it refuses). Cheap checks run before the signature and the body digest, so junk costs
 * little. Reads no clock: freshness is judged elsewhere from the certified times.
 *
 * <p>Which keys are trusted is a {@link ProviderTrust}: configured keys, keys they certified by
 * rotation, minus revoked keys, whose objects are refused as {@link RejectReason#REVOKED_KEY}.
 *
 * <p>Given a {@link VerifiedSignatures} memo, a signature this process already verified (the same
 * certificate, heartbeat or variant record, byte for byte) is not verified again; everything else,
 * the body digest included, is checked on every call.
 */
public final class ObjectVerifier {
    private final ProviderTrust trust;
    private final VersionFloor floor;
    private final int maxBodyBytes;
    // Null for none: every signature is then verified in full, as before the memo existed.
    private final VerifiedSignatures signatures;

    /**
     * A verifier trusting {@code trustedProviders}, keeping its floors in {@code floor} (which may be
     * shared with other verifiers of the same node), and decoding bodies up to {@code maxBodyBytes}.
     * Every signature is verified in full.
     */
    public ObjectVerifier(Set<PublicKey> trustedProviders, VersionFloor floor, int maxBodyBytes) {
        this(ProviderTrust.of(trustedProviders), floor, maxBodyBytes, Optional.empty());
    }

    /**
     * As {@link #ObjectVerifier(Set, VersionFloor, int)}, but consulting and filling {@code signatures}
     * (which may be shared too), so that a signature already verified is not verified again.
     */
    public ObjectVerifier(Set<PublicKey> trustedProviders, VersionFloor floor, int maxBodyBytes,
                          VerifiedSignatures signatures) {
        this(ProviderTrust.of(trustedProviders), floor, maxBodyBytes, Optional.of(signatures));
    }

    /**
     * A verifier trusting what {@code trust} trusts when each call is made: keys certified by a
     * rotation it learned are accepted, and revoked ones refused ({@link RejectReason#REVOKED_KEY}).
     */
    public ObjectVerifier(ProviderTrust trust, VersionFloor floor, int maxBodyBytes, VerifiedSignatures signatures) {
        this(trust, floor, maxBodyBytes, Optional.of(signatures));
    }

    private ObjectVerifier(ProviderTrust trust, VersionFloor floor, int maxBodyBytes,
                           Optional<VerifiedSignatures> signatures) {
        if (maxBodyBytes < 0) {
            throw new IllegalArgumentException("negative body limit " + maxBodyBytes);
        }
        this.trust = trust;
        this.floor = floor;
        this.maxBodyBytes = maxBodyBytes;
        this.signatures = signatures.orElse(null);
    }

    /** A verifier with the default body limit, {@link WebObject#DEFAULT_MAX_BODY_BYTES}. */
    public ObjectVerifier(Set<PublicKey> trustedProviders, VersionFloor floor) {
        this(trustedProviders, floor, WebObject.DEFAULT_MAX_BODY_BYTES);
    }

    /** Decodes and verifies a replica's data fetched for {@code requestedGuid}. */
    public ReplicaVerification verifyReplica(byte[] replicaData, Id requestedGuid) {
        WebObject object;
        try {
            object = WebObject.fromBytes(replicaData, maxBodyBytes);
        } catch (ObjectFormatException e) {
            return new ReplicaVerification(Verification.rejected(MALFORMED, e.getMessage()), Optional.empty());
        }
        Verification verdict = verify(object, requestedGuid);
        return new ReplicaVerification(verdict, verdict.ok() ? Optional.of(object) : Optional.empty());
    }

    /** Verifies a whole object fetched for {@code requestedGuid}: certificate, then body. */
    public Verification verify(WebObject object, Id requestedGuid) {
        ObjectCertificate certificate = object.certificate();
        Optional<Verification> refused = checkCertificate(certificate, requestedGuid);
        if (refused.isPresent()) {
            return refused.get();
        }
        if (!MessageDigest.isEqual(object.bodyDigest(), certificate.bodyDigest())) {
            return Verification.rejected(BODY_DIGEST_MISMATCH, describe(certificate)
                    + ": the body (" + object.response().bodyLength() + " bytes) does not match the certified SHA-256");
        }
        floor.raise(certificate.guid(), certificate.version());
        return Verification.accepted(describe(certificate) + " verified");
    }

    /**
     * Verifies a certificate alone, for judging freshness before (or without) fetching the body. An
     * accepted certificate raises the floor: the provider did certify that version current.
     */
    public Verification verifyCertificate(ObjectCertificate certificate, Id requestedGuid) {
        Optional<Verification> refused = checkCertificate(certificate, requestedGuid);
        if (refused.isPresent()) {
            return refused.get();
        }
        floor.raise(certificate.guid(), certificate.version());
        return Verification.accepted(describe(certificate) + " certificate verified (body not checked)");
    }

    /**
     * Verifies {@code heartbeat} against {@code current}, the certificate of the object held (already
     * verified). Accepted only for that object's version, which is then still current as of the
     * heartbeat's time. A genuine heartbeat for a newer version raises the floor and is reported
     * as {@link RejectReason#STALE_VERSION}: the held object has been superseded.
     */
    public Verification verifyHeartbeat(Heartbeat heartbeat, ObjectCertificate current) {
        String what = "heartbeat for " + heartbeat.guid().shortHex() + " v" + heartbeat.version();
        Optional<Verification> distrusted = distrusted(heartbeat.provider(), what);
        if (distrusted.isPresent()) {
            return distrusted.get();
        }
        if (!heartbeat.provider().equals(current.provider())) {
            // A trusted provider still speaks only for the names under its own key.
            return Verification.rejected(UNTRUSTED_PROVIDER, what + " is signed by " + heartbeat.provider()
                    + ", but the object is named by " + current.provider());
        }
        if (!heartbeat.guid().equals(current.guid())) {
            return Verification.rejected(WRONG_GUID, what + " does not name the held object " + current.guid().shortHex());
        }
        if (!floor.admits(heartbeat.guid(), heartbeat.version())) {
            return Verification.rejected(STALE_VERSION, what + " is older than version " + floor.floor(heartbeat.guid())
                    + " already certified");
        }
        if (!signedBy(heartbeat.provider(), heartbeat.signedBytes(), heartbeat.signature())) {
            return Verification.rejected(BAD_SIGNATURE, what + " does not carry the provider's signature");
        }
        floor.raise(heartbeat.guid(), heartbeat.version());
        if (heartbeat.version() < current.version()) {
            return Verification.rejected(STALE_VERSION, what + " is older than the held version " + current.version());
        }
        if (heartbeat.version() > current.version()) {
            return Verification.rejected(STALE_VERSION, what + " supersedes the held version " + current.version());
        }
        return Verification.accepted(what + " verified: current at " + heartbeat.issuedAtMillis() + " ms");
    }

    /**
     * Verifies a variant record read for {@code requestedGuid} (a URL's base GUID): trusted provider,
     * the GUID asked for and the hash of the record's URL, not older than a version already seen
     * there, the provider's signature. An accepted record raises the floor of that GUID, which its
     * versions share with the non-varying copies stored there at other times.
     */
    public Verification verifyVariantRecord(VariantRecord record, Id requestedGuid) {
        String what = "variant record " + record.guid().shortHex() + " v" + record.version();
        Optional<Verification> distrusted = distrusted(record.provider(), what);
        if (distrusted.isPresent()) {
            return distrusted.get();
        }
        if (!record.guid().equals(requestedGuid)) {
            return Verification.rejected(WRONG_GUID, what + " was served for " + requestedGuid.shortHex());
        }
        // Otherwise a genuine record for one URL could be relabelled as another's, sending readers astray.
        if (!record.nameGuid().equals(record.guid())) {
            return Verification.rejected(WRONG_GUID, what + " claims a GUID that is not the hash of " + record.canonicalUrl());
        }
        if (!floor.admits(record.guid(), record.version())) {
            return Verification.rejected(STALE_VERSION, what + " is older than version " + floor.floor(record.guid())
                    + " already certified");
        }
        if (!signedBy(record.provider(), record.signedBytes(), record.signature())) {
            return Verification.rejected(BAD_SIGNATURE, what + " does not carry the provider's signature");
        }
        floor.raise(record.guid(), record.version());
        return Verification.accepted(what + " verified: varies on " + record.varyFields());
    }

    // The checks a certificate must pass, cheapest first; empty if it passes them all.
    private Optional<Verification> checkCertificate(ObjectCertificate certificate, Id requestedGuid) {
        String what = describe(certificate);
        Optional<Verification> distrusted = distrusted(certificate.provider(), what);
        if (distrusted.isPresent()) {
            return distrusted;
        }
        if (!certificate.guid().equals(requestedGuid)) {
            return Optional.of(Verification.rejected(WRONG_GUID, what + " was served for " + requestedGuid.shortHex()));
        }
        // Otherwise a provider's genuine certificate for one URL could be relabelled as another's.
        if (!certificate.nameGuid().equals(certificate.guid())) {
            return Optional.of(Verification.rejected(WRONG_GUID, what + " claims a GUID that is not the hash of "
                    + certificate.canonicalUrl()));
        }
        if (!floor.admits(certificate.guid(), certificate.version())) {
            return Optional.of(Verification.rejected(STALE_VERSION, what + " is older than version "
                    + floor.floor(certificate.guid()) + " already certified"));
        }
        if (!signedBy(certificate.provider(), certificate.signedBytes(), certificate.signature())) {
            return Optional.of(Verification.rejected(BAD_SIGNATURE, what + " does not carry the provider's signature"));
        }
        return Optional.empty();
    }

    // Empty if provider may sign now; else why not, revocation first (the reason a user most needs).
    private Optional<Verification> distrusted(PublicKey provider, String what) {
        if (trust.isRevoked(provider)) {
            return Optional.of(Verification.rejected(REVOKED_KEY, what + " is signed by revoked key " + provider));
        }
        if (!trust.trusts(provider)) {
            return Optional.of(Verification.rejected(UNTRUSTED_PROVIDER, what + " is signed by untrusted " + provider));
        }
        return Optional.empty();
    }

    /** The trust this verifier consults (shared: records learned there change what it accepts). */
    public ProviderTrust trust() {
        return trust;
    }

    // What each statement's signatureValid() answers, through the memo if there is one.
    private boolean signedBy(PublicKey provider, byte[] signedBytes, byte[] signature) {
        return signatures == null ? provider.verify(signedBytes, signature)
                : signatures.verify(provider, signedBytes, signature);
    }

    /** The memo of verified signatures this verifier consults, if it was given one. */
    public Optional<VerifiedSignatures> signatures() {
        return Optional.ofNullable(signatures);
    }

    private static String describe(ObjectCertificate certificate) {
        return "object " + certificate.guid().shortHex() + " v" + certificate.version();
    }
}
