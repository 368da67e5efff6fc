package io.riptide.core.object;

import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A web object as a replica holds it: the provider's certificate and the stored response it
 * certifies. {@link #toBytes()} is the replica's data in the overlay's store.
 *
 * <p>Wire layout: {@code u8 format (1) | certificate fields (see ObjectCertificate.writeFields) |
 * bytes signature (u32 64, then 64) | bytes body (u32 length, then the body)}. The status line and
 * headers travel once, inside the certificate, so a stored object cannot carry headers other than
 * the signed ones. Nothing here proves the object genuine: that is {@link ObjectVerifier}'s job.
 */
public record WebObject(ObjectCertificate certificate, StoredResponse response) {
    /** Version of the stored layout. */
    public static final int FORMAT = 1;
    /** Largest body {@link #fromBytes(byte[])} accepts unless told otherwise: 64 MiB. */
    public static final int DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

    public WebObject {
        Objects.requireNonNull(certificate, "certificate");
        Objects.requireNonNull(response, "response");
        // The layout stores the head once, so an object whose head differs from its certificate's
        // could not be written faithfully; refuse it here rather than change it on the way out.
        if (!response.headMatches(certificate)) {
            throw new IllegalArgumentException("the response's status line and headers are not the certified ones");
        }
    }

    /** The object made of {@code certificate}'s status line and headers with {@code body}. */
    public static WebObject of(ObjectCertificate certificate, byte[] body) {
        return new WebObject(certificate, new StoredResponse(certificate.statusCode(), certificate.reasonPhrase(),
                certificate.headers(), body));
    }

    /** SHA-256 of the body as it is now (computed on each call; compare with the certificate's). */
    public byte[] bodyDigest() {
        return Encoding.sha256(response.bodyView());
    }

    /** The stored form (layout in the class comment). */
    public byte[] toBytes() {
        byte[] head = Encoding.write(512, out -> certificate.writeTo(out.u8(FORMAT)));
        ByteBuffer body = response.bodyView();
        // Sized exactly and filled in place: a body may be tens of megabytes, so copy it only once.
        byte[] out = new byte[head.length + 4 + body.remaining()];
        ByteBuffer.wrap(out).put(head).putInt(body.remaining()).put(body);
        return out;
    }

    /** {@link #fromBytes(byte[], int)} with a body limit of {@link #DEFAULT_MAX_BODY_BYTES}. */
    public static WebObject fromBytes(byte[] data) throws ObjectFormatException {
        return fromBytes(data, DEFAULT_MAX_BODY_BYTES);
    }

    /**
     * Reads the stored form, refusing a body over {@code maxBodyBytes} and any truncated, oversized,
     * out-of-range or trailing field. Never allocates much more than {@code data} itself.
     */
    public static WebObject fromBytes(byte[] data, int maxBodyBytes) throws ObjectFormatException {
        if (maxBodyBytes < 0) {
            throw new IllegalArgumentException("negative body limit " + maxBodyBytes);
        }
        return Encoding.read(data, "web object", in -> {
            Encoding.formatVersion(in, FORMAT, "web object");
            ObjectCertificate certificate = ObjectCertificate.readFrom(in);
            return of(certificate, in.bytes(maxBodyBytes));
        });
    }
}
