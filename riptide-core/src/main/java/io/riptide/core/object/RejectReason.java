package io.riptide.core.object;

/** Why a replica, certificate or heartbeat was refused. */
public enum RejectReason {
    /** Signed (or claimed) by a provider key this verifier does not trust. */
    UNTRUSTED_PROVIDER,
    /** The signature is not the provider's over the signed bytes. */
    BAD_SIGNATURE,
    /** The body does not hash to the certified digest. */
    BODY_DIGEST_MISMATCH,
    /** Not the object asked for, or a GUID that is not the hash of the certified name. */
    WRONG_GUID,
    /** A version older than one already seen certified current. */
    STALE_VERSION,
    /** Signed by a provider key that has been revoked ({@link KeyRevocation}), or the revocation itself. */
    REVOKED_KEY,
    /** The bytes could not be decoded at all. */
    MALFORMED
}
