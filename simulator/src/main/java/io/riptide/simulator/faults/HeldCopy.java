package io.riptide.simulator.faults;

import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.ObjectFormatException;
import io.riptide.core.object.WebObject;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * What a node's stored replica of a web object is, to a checker: its certified version and the
 * identity of its certificate (the SHA-256 of what the provider signed: URL, version, headers,
 * times and the body's digest), and its body's digest. Two copies with one version and different
 * certificates are two copies of that version.
 */
record HeldCopy(long version, byte[] certificate, byte[] bodyDigest) {
    /** The copy {@code replica} holds, or null if it is no well-formed cached copy (a variant record, say). */
    static HeldCopy of(byte[] replica) {
        if (replica == null) {
            return null;
        }
        try {
            ObjectCertificate cert = CachedCopy.fromBytes(replica, WebObject.DEFAULT_MAX_BODY_BYTES).object().certificate();
            return new HeldCopy(cert.version(), sha256(cert.signedBytes()), cert.bodyDigest());
        } catch (ObjectFormatException e) {
            return null;
        }
    }

    boolean sameCertificate(HeldCopy other) {
        return Arrays.equals(certificate, other.certificate);
    }

    boolean sameBody(HeldCopy other) {
        return Arrays.equals(bodyDigest, other.bodyDigest);
    }

    /** The certificate's identity, shortened, for messages. */
    String shortId() {
        return HexFormat.of().formatHex(certificate, 0, 6);
    }

    private static byte[] sha256(byte[] bytes) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
