package io.riptide.core.object;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.Headers;

/**
 * A signed takedown: the provider's certificate that version {@code v} of an object is "purged at
 * t", with an empty body. It is an ordinary {@link WebObject} (status 410 Gone, the signed
 * {@value #HEADER} field, lifetime 0), so it needs no new wire format: it travels, is stored, verified
 * and raises the {@link VersionFloor} exactly as a new version does, and a replica holding it has
 * dropped the body it replaced. Because its version is above every earlier one, a replayed older copy
 * is refused wherever the tombstone was seen ({@link ObjectCertificate#isTombstone()}).
 */
public final class Tombstone {
    /** The status a tombstone certifies (RFC 9110 section 15.5.11, Gone). */
    public static final int STATUS = 410;
    /** The signed header field that marks a tombstone; its value is the purge time in epoch milliseconds. */
    public static final String HEADER = "riptide-purged";

    private Tombstone() {
    }

    /**
     * Whether {@code replica} (a stored {@link CachedCopy}) is a tombstone. Cheap for anything else: a
     * body of even one byte stops the decoding after the certificate. Says nothing of the signature.
     */
    public static boolean is(byte[] replica) {
        try {
            return CachedCopy.fromBytes(replica, 0).object().certificate().isTombstone();
        } catch (ObjectFormatException | RuntimeException e) {
            return false;
        }
    }

    /**
     * {@code provider}'s tombstone for the object at {@code canonicalUrl} (variant {@code variantKey},
     * "" for none) as version {@code version}, purged at {@code purgedAtMillis} (the gateway's clock).
     */
    public static WebObject sign(SigningKey provider, String canonicalUrl, String variantKey, long version,
                                 long purgedAtMillis) {
        StoredResponse gone = new StoredResponse(STATUS, "Gone",
                Headers.of(HEADER, Long.toString(purgedAtMillis), "cache-control", "no-store"), new byte[0]);
        ObjectCertificate certificate = ObjectCertificate.sign(provider, canonicalUrl, variantKey, version, gone,
                purgedAtMillis, purgedAtMillis, 0);
        return WebObject.of(certificate, gone.body());
    }
}
