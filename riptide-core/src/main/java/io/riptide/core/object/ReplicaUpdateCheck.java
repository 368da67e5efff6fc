package io.riptide.core.object;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.id.Id;
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
 * attack worth seeing. Not thread-safe: one node's loop calls it.
 */
public final class ReplicaUpdateCheck {
    private final VersionFloor floor;
    private final int maxBodyBytes;
    private long accepted;
    private long refused;
    private long tombstonesAccepted;
    private long tombstonesRefused;
    private Verification lastRefusal;

    /** A check raising and consulting {@code floor} (the node's), decoding bodies up to {@code maxBodyBytes}. */
    public ReplicaUpdateCheck(VersionFloor floor, int maxBodyBytes) {
        this.floor = floor;
        this.maxBodyBytes = maxBodyBytes;
    }

    /** Whether {@code data} may replace what this node holds for {@code guid}; counts the verdict. */
    public boolean admits(Id guid, byte[] data) {
        Verification v = check(guid, data);
        if (v.ok()) {
            accepted++;
            return true;
        }
        refused++;
        lastRefusal = v;
        return false;
    }

    private Verification check(Id guid, byte[] data) {
        if (VariantRecord.isVariantRecord(data)) {
            try {
                VariantRecord record = VariantRecord.fromBytes(data);
                return verifier(record.provider()).verifyVariantRecord(record, guid);
            } catch (ObjectFormatException e) {
                return Verification.rejected(RejectReason.MALFORMED, e.getMessage());
            }
        }
        CachedCopy copy;
        try {
            copy = CachedCopy.fromBytes(data, maxBodyBytes);
        } catch (ObjectFormatException e) {
            if (floor.floor(guid) > 0) {
                return Verification.rejected(RejectReason.MALFORMED, "undecodable data for " + guid.shortHex()
                        + ", which holds a signed object: " + e.getMessage());
            }
            return Verification.accepted("not a web object: the overlay's own data");
        }
        ObjectCertificate certificate = copy.object().certificate();
        Verification v = verifier(certificate.provider()).verify(copy.object(), guid);
        if (v.ok() && copy.heartbeat().isPresent()) {
            Verification beat = verifier(certificate.provider()).verifyHeartbeat(copy.heartbeat().get(), certificate);
            v = beat.ok() ? v : beat;
        }
        if (certificate.isTombstone()) {
            if (v.ok()) {
                tombstonesAccepted++;
            } else {
                tombstonesRefused++;
            }
        }
        return v;
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
