package io.riptide.core.object;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.id.Id;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * What a storage node checks before new data for a GUID replaces its replica (an update down a
 * dissemination tree, or a parent's answer to an attach): a web object, tombstone or variant record
 * must name that GUID, carry its provider's signature (and its body's digest), and be no older than the
 * node's {@link VersionFloor}, which an accepted one raises. A node needs no list of trusted providers
 * for this: a GUID is the hash of the provider's key and the URL, so only the key that names the GUID
 * can sign for it. Data that is no web object at all is the overlay's own (tests, other applications)
 * and passes, unless the node has already seen a certified version of that GUID: junk never replaces
 * a signed object. Each refusal is counted; refused tombstones apart, since a forged takedown is an
 * attack worth seeing. A bundle of {@link KeyRecords} that revokes a key is admitted (the node learns
 * the revocation into its {@link ProviderTrust}), and from then on anything that key signed is
 * refused ({@link RejectReason#REVOKED_KEY}). Not thread-safe: one node's loop calls it.
 */
public final class ReplicaUpdateCheck {
    private final VersionFloor floor;
    private final int maxBodyBytes;
    private final ProviderTrust keys;
    private long accepted;
    private long refused;
    private long tombstonesAccepted;
    private long tombstonesRefused;
    private long keyRecordsAccepted;
    private long keyRecordsRefused;
    private long revokedRefused;
    private Verification lastRefusal;

    /** A check raising and consulting {@code floor} (the node's), decoding bodies up to {@code maxBodyBytes}. */
    public ReplicaUpdateCheck(VersionFloor floor, int maxBodyBytes) {
        this(floor, maxBodyBytes, ProviderTrust.open());
    }

    /**
     * As {@link #ReplicaUpdateCheck(VersionFloor, int)}, learning key records into {@code keys} (the
     * node's open trust) and refusing whatever a key revoked there signed.
     */
    public ReplicaUpdateCheck(VersionFloor floor, int maxBodyBytes, ProviderTrust keys) {
        this.floor = floor;
        this.maxBodyBytes = maxBodyBytes;
        this.keys = keys;
    }

    /** Whether {@code data} may replace what this node holds for {@code guid}; counts the verdict. */
    public boolean admits(Id guid, byte[] data) {
        Verification v = check(guid, data, true);
        if (v.ok()) {
            accepted++;
            return true;
        }
        refused++;
        lastRefusal = v;
        return false;
    }

    /**
     * Whether {@code data}, read for {@code guid}, is what its provider signed (and no older than this
     * node's floor): the check of {@link #admits} without its counts, for an access node's verified
     * reads. Key records pass when they decode; whoever learns them judges their signatures. Data that
     * is no web object fails: a client reads web objects, and junk must not end a read.
     */
    public boolean authentic(Id guid, byte[] data) {
        if (KeyRecords.isKeyRecords(data)) {
            try {
                KeyRecords.fromBytes(data);
                return true;
            } catch (ObjectFormatException e) {
                return false;
            }
        }
        return check(guid, data, false).ok();
    }

    private Verification check(Id guid, byte[] data, boolean counted) {
        if (KeyRecords.isKeyRecords(data)) {
            return checkKeyRecords(guid, data);
        }
        if (VariantRecord.isVariantRecord(data)) {
            try {
                VariantRecord record = VariantRecord.fromBytes(data);
                if (keys.isRevoked(record.provider())) {
                    revokedRefused += counted ? 1 : 0;
                    return Verification.rejected(RejectReason.REVOKED_KEY, "variant record " + guid.shortHex()
                            + " is signed by revoked key " + record.provider());
                }
                return verifier(record.provider()).verifyVariantRecord(record, guid);
            } catch (ObjectFormatException e) {
                return Verification.rejected(RejectReason.MALFORMED, e.getMessage());
            }
        }
        CachedCopy copy;
        try {
            copy = CachedCopy.fromBytes(data, maxBodyBytes);
        } catch (ObjectFormatException e) {
            if (!counted) {
                return Verification.rejected(RejectReason.MALFORMED, "undecodable data read for " + guid.shortHex()
                        + ": a client reads web objects: " + e.getMessage());
            }
            if (floor.floor(guid) > 0) {
                return Verification.rejected(RejectReason.MALFORMED, "undecodable data for " + guid.shortHex()
                        + ", which holds a signed object: " + e.getMessage());
            }
            return Verification.accepted("not a web object: the overlay's own data");
        }
        ObjectCertificate certificate = copy.object().certificate();
        if (keys.isRevoked(certificate.provider())) {
            revokedRefused += counted ? 1 : 0;
            return Verification.rejected(RejectReason.REVOKED_KEY, "object " + guid.shortHex() + " is signed by revoked key "
                    + certificate.provider());
        }
        Verification v = verifier(certificate.provider()).verify(copy.object(), guid);
        if (v.ok() && copy.heartbeat().isPresent()) {
            Verification beat = verifier(certificate.provider()).verifyHeartbeat(copy.heartbeat().get(), certificate);
            v = beat.ok() ? v : beat;
        }
        if (certificate.isTombstone() && counted) {
            if (v.ok()) {
                tombstonesAccepted++;
            } else {
                tombstonesRefused++;
            }
        }
        return v;
    }

    /*
     * A bundle of key records is admitted when it carries a revocation that verifies (new here, or
     * already learned): the gateway sends one down the tree of each object the revoked key signed. The
     * node then replaces the replica only if that replica is signed by a revoked key (the caller's
     * check, which reads the store), so a bundle cannot take the place of a live object.
     */
    private Verification checkKeyRecords(Id guid, byte[] data) {
        KeyRecords records;
        try {
            records = KeyRecords.fromBytes(data);
        } catch (ObjectFormatException e) {
            keyRecordsRefused++;
            return Verification.rejected(RejectReason.MALFORMED, e.getMessage());
        }
        List<Verification> verdicts = keys.learn(records);
        boolean revokes = records.revocations().stream().anyMatch(r -> keys.isRevoked(r.revokedKey()));
        if (!revokes) {
            keyRecordsRefused++;
            return verdicts.stream().filter(v -> !v.ok()).findFirst().orElse(Verification.rejected(
                    RejectReason.BAD_SIGNATURE, "key records for " + guid.shortHex() + " revoke no key"));
        }
        keyRecordsAccepted++;
        return Verification.accepted("key records for " + guid.shortHex() + " revoke " + keys.revokedCount() + " key(s)");
    }

    /**
     * The key that signed {@code replica} (a stored copy, tombstone or variant record), or empty for
     * data that is none of these. Decodes the whole replica: for sweeps after a revocation, not for
     * every read.
     */
    public static Optional<PublicKey> signer(byte[] replica) {
        if (replica == null || KeyRecords.isKeyRecords(replica)) {
            return Optional.empty();
        }
        try {
            if (VariantRecord.isVariantRecord(replica)) {
                return Optional.of(VariantRecord.fromBytes(replica).provider());
            }
            return Optional.of(CachedCopy.fromBytes(replica, Integer.MAX_VALUE).object().certificate().provider());
        } catch (ObjectFormatException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The node's record of revoked keys, which this check fills and consults. */
    public ProviderTrust keys() {
        return keys;
    }

    /** Key-record bundles admitted so far (each revoking a key; the node drops that key's replicas). */
    public long keyRecordsAccepted() {
        return keyRecordsAccepted;
    }

    /** Key-record bundles refused: undecodable, forged, or revoking nothing. */
    public long keyRecordsRefused() {
        return keyRecordsRefused;
    }

    /** Objects refused for being signed by a revoked key. */
    public long revokedRefused() {
        return revokedRefused;
    }

    // The provider a statement names is trusted for it: the GUID check then ties it to the GUID asked for.
    private ObjectVerifier verifier(PublicKey provider) {
        return new ObjectVerifier(Set.of(provider), floor, maxBodyBytes);
    }

    /** Updates admitted so far. */
    public long accepted() {
        return accepted;
    }

    /** Updates refused so far (forged, older than the floor, or junk over a signed object). */
    public long refused() {
        return refused;
    }

    /** Tombstones admitted so far (objects purged here). */
    public long tombstonesAccepted() {
        return tombstonesAccepted;
    }

    /** Tombstones refused so far: forged, relabelled or older than the floor. */
    public long tombstonesRefused() {
        return tombstonesRefused;
    }

    /** Why the last refusal was refused, for logs and tests. */
    public Optional<Verification> lastRefusal() {
        return Optional.ofNullable(lastRefusal);
    }
}
