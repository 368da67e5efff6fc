package io.riptide.core.object;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.wire.WireException;
import io.riptide.core.wire.WireReader;
import io.riptide.core.wire.WireWriter;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A provider's signed statement about one version of a web object: its name, the status line and
 * headers, the SHA-256 of the body, and the times a cache needs to judge freshness (RFC 9111
 * section 4.2.3) without reading the body.
 *
 * <p>The signature covers {@link #signedBytes()}; see there for the layout.
 */
public record ObjectCertificate(
        PublicKey provider,
        Id guid,
        String canonicalUrl,
        String variantKey,
        long version,
        byte[] bodyDigest,
        int statusCode,
        String reasonPhrase,
        Headers headers,
        long requestTimeMillis,
        long responseTimeMillis,
        long freshnessLifetimeSeconds,
        byte[] signature) {

    /** Most header fields a stored response may carry (the wire's u16 list count). */
    public static final int MAX_HEADER_FIELDS = 0xffff;
    /** Leads the signed bytes so that no other signed statement can be mistaken for a certificate. */
    static final String DOMAIN = "riptide/object-certificate";
    /** Version of the signed-bytes layout. */
    static final int FORMAT = 1;

    public ObjectCertificate {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(guid, "guid");
        ObjectNames.checkObjectUrl(canonicalUrl);
        Encoding.checkText(variantKey, "variant key");
        if (version < 1) {
            throw new IllegalArgumentException("versions start at 1, got " + version);
        }
        bodyDigest = Encoding.copyExact(bodyDigest, Encoding.SHA256_BYTES, "body digest");
        if (statusCode < 100 || statusCode > 599) {
            throw new IllegalArgumentException("status code out of range: " + statusCode);
        }
        Encoding.checkText(reasonPhrase, "reason phrase");
        Encoding.checkHeaders(headers);
        // RFC 9111's request_time precedes response_time; both are the gateway's clock.
        if (requestTimeMillis < 0 || responseTimeMillis < requestTimeMillis) {
            throw new IllegalArgumentException("need 0 <= request time <= response time, got "
                    + requestTimeMillis + " and " + responseTimeMillis);
        }
        if (freshnessLifetimeSeconds < 0) {
            throw new IllegalArgumentException("negative freshness lifetime " + freshnessLifetimeSeconds);
        }
        signature = Encoding.copyExact(signature, SigningKey.SIGNATURE_BYTES, "signature");
    }

    /**
     * Certifies {@code response} as version {@code version} of the object at {@code canonicalUrl}
     * (variant {@code variantKey}, "" for none), named and signed by {@code provider}. The times are
     * the gateway's, passed in: this class never reads a clock.
     */
    public static ObjectCertificate sign(SigningKey provider, String canonicalUrl, String variantKey, long version,
            StoredResponse response, long requestTimeMillis, long responseTimeMillis, long freshnessLifetimeSeconds) {
        PublicKey key = provider.publicKey();
        byte[] digest = Encoding.sha256(response.bodyView());
        // Built once unsigned (a placeholder signature) to run the field checks and produce the
        // bytes to sign, then once more with the real signature.
        ObjectCertificate unsigned = new ObjectCertificate(key, ObjectNames.objectGuid(key, canonicalUrl, variantKey),
                canonicalUrl, variantKey, version, digest, response.statusCode(), response.reasonPhrase(),
                response.headers(), requestTimeMillis, responseTimeMillis, freshnessLifetimeSeconds,
                new byte[SigningKey.SIGNATURE_BYTES]);
        return unsigned.withSignature(provider.sign(unsigned.signedBytes()));
    }

    /** This certificate with {@code newSignature} in place of its own (for re-signing and for tests). */
    public ObjectCertificate withSignature(byte[] newSignature) {
        return new ObjectCertificate(provider, guid, canonicalUrl, variantKey, version, bodyDigest, statusCode,
                reasonPhrase, headers, requestTimeMillis, responseTimeMillis, freshnessLifetimeSeconds, newSignature);
    }

    /**
     * The bytes the provider signs: {@code string "riptide/object-certificate" | u8 1 |} the fields
     * as {@link #writeFields} writes them. Every variable-length field is length-prefixed and the
     * order is fixed, so the encoding is deterministic and no two certificates share it.
     */
    public byte[] signedBytes() {
        return Encoding.write(256 + 64 * headers.size(), out -> writeFields(out.string(DOMAIN).u8(FORMAT)));
    }

    /** Whether the signature is the provider's over {@link #signedBytes()}. */
    public boolean signatureValid() {
        return provider.verify(signedBytes(), signature);
    }

    /**
     * Whether this certifies a takedown, not content: a {@link Tombstone} (status 410 with the signed
     * {@value Tombstone#HEADER} field). Replicas keep it in place of the body; readers go to the origin.
     */
    public boolean isTombstone() {
        return statusCode == Tombstone.STATUS && headers.contains(Tombstone.HEADER);
    }

    /** The GUID the name fields hash to; a genuine certificate's {@link #guid()} equals it. */
    public Id nameGuid() {
        return ObjectNames.objectGuid(provider, canonicalUrl, variantKey);
    }

    @Override
    public byte[] bodyDigest() {
        return bodyDigest.clone();
    }

    @Override
    public byte[] signature() {
        return signature.clone();
    }

    /**
     * Writes every field but the signature: {@code bytes provider (32) | id guid | string url |
     * string variant | i64 version | bytes body SHA-256 (32) | u16 status | string reason |
     * u16 count, (string name, string value)* | i64 request ms | i64 response ms | i64 lifetime s}.
     */
    void writeFields(WireWriter out) {
        out.bytes(provider.toBytes())
                .id(guid)
                .string(canonicalUrl)
                .string(variantKey)
                .i64(version)
                .bytes(bodyDigest)
                .u16(statusCode)
                .string(reasonPhrase)
                .list(headers.fields(), (w, f) -> w.string(f.name()).string(f.value()))
                .i64(requestTimeMillis)
                .i64(responseTimeMillis)
                .i64(freshnessLifetimeSeconds);
    }

    /** Writes the fields and then the signature ({@code bytes signature (64)}). */
    void writeTo(WireWriter out) {
        writeFields(out);
        out.bytes(signature);
    }

    /** Reads what {@link #writeTo} wrote; the record's own checks refuse out-of-range values. */
    static ObjectCertificate readFrom(WireReader in) throws WireException {
        PublicKey provider = Encoding.publicKey(in);
        Id guid = in.id();
        String url = in.string(Encoding.MAX_TEXT_BYTES);
        String variant = in.string(Encoding.MAX_TEXT_BYTES);
        long version = in.i64();
        byte[] digest = Encoding.fixed(in, Encoding.SHA256_BYTES, "body digest");
        int status = in.u16();
        String reason = in.string(Encoding.MAX_TEXT_BYTES);
        Headers headers = Headers.of(in.list(MAX_HEADER_FIELDS, r -> new Headers.Field(
                r.string(Encoding.MAX_TEXT_BYTES), r.string(Encoding.MAX_TEXT_BYTES))));
        long requestTime = in.i64();
        long responseTime = in.i64();
        long lifetime = in.i64();
        byte[] signature = Encoding.fixed(in, SigningKey.SIGNATURE_BYTES, "signature");
        return new ObjectCertificate(provider, guid, url, variant, version, digest, status, reason, headers,
                requestTime, responseTime, lifetime, signature);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ObjectCertificate c && provider.equals(c.provider) && guid.equals(c.guid)
                && canonicalUrl.equals(c.canonicalUrl) && variantKey.equals(c.variantKey) && version == c.version
                && Arrays.equals(bodyDigest, c.bodyDigest) && statusCode == c.statusCode
                && reasonPhrase.equals(c.reasonPhrase) && headers.equals(c.headers)
                && requestTimeMillis == c.requestTimeMillis && responseTimeMillis == c.responseTimeMillis
                && freshnessLifetimeSeconds == c.freshnessLifetimeSeconds && Arrays.equals(signature, c.signature);
    }

    @Override
    public int hashCode() {
        // The signature covers every other field, so it alone spreads certificates well.
        return guid.hashCode() * 31 + Arrays.hashCode(signature);
    }

    @Override
    public String toString() {
        return "ObjectCertificate[" + guid.shortHex() + " v" + version + " " + canonicalUrl
                + (variantKey.isEmpty() ? "" : " variant " + variantKey) + ", " + statusCode
                + ", body sha256 " + HexFormat.of().formatHex(bodyDigest, 0, 4) + "…, signed by " + provider + "]";
    }
}
