package io.riptide.core.object;

import io.riptide.core.http.Headers;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The origin's response as the overlay stores it: status line, header fields in order, and body.
 * Immutable: the body is copied in and out ({@link #bodyView()} reads it without a copy).
 */
public record StoredResponse(int statusCode, String reasonPhrase, Headers headers, byte[] body) {
    public StoredResponse {
        if (statusCode < 100 || statusCode > 599) {
            throw new IllegalArgumentException("status code out of range: " + statusCode);
        }
        Encoding.checkText(reasonPhrase, "reason phrase");
        Encoding.checkHeaders(headers);
        if (body == null) {
            throw new IllegalArgumentException("a stored response needs a body (possibly empty)");
        }
        body = body.clone();
    }

    /** A copy of the body. */
    @Override
    public byte[] body() {
        return body.clone();
    }

    /** The body, read-only and uncopied: for digests and for writing it out. */
    public ByteBuffer bodyView() {
        return ByteBuffer.wrap(body).asReadOnlyBuffer();
    }

    public int bodyLength() {
        return body.length;
    }

    /** Whether the status line and headers are those of {@code certificate}. */
    public boolean headMatches(ObjectCertificate certificate) {
        return statusCode == certificate.statusCode()
                && reasonPhrase.equals(certificate.reasonPhrase())
                && headers.equals(certificate.headers());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StoredResponse r && statusCode == r.statusCode && reasonPhrase.equals(r.reasonPhrase)
                && headers.equals(r.headers) && Arrays.equals(body, r.body);
    }

    @Override
    public int hashCode() {
        return ((statusCode * 31 + reasonPhrase.hashCode()) * 31 + headers.hashCode()) * 31 + Arrays.hashCode(body);
    }

    @Override
    public String toString() {
        return "StoredResponse[" + statusCode + " " + reasonPhrase + ", " + headers.size() + " headers, "
                + body.length + " body bytes]";
    }
}
