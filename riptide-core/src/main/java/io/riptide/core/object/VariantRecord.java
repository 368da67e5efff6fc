package io.riptide.core.object;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.id.Id;
import java.util.Arrays;
import io.riptide.core.wire.WireException;
import io.riptide.core.wire.WireWriter;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A provider's signed statement "the object at {@code canonicalUrl} varies on the request fields
 * {@code varyFields}", stored under the URL's base GUID (variant "") where a response that does not
 * vary would be. A reader that finds it computes the request's variant key from these names and
 * reads that variant's GUID: without it, no reader could know which GUID to ask for.
 *
 * <p>Signed bytes: {@code string "riptide/variant-record" | u8 1 |} the fields as
 * {@link #toBytes()} writes them after its first two bytes, without the signature. Stored layout:
 * {@code u8 kind (0x56, 'V') | u8 format (1) | bytes provider (32) | id guid | string url |
 * u16 count, string field* | i64 version | i64 issued-at ms | bytes signature (64)}. A
 * {@link CachedCopy} begins with its format byte (1), never {@link #KIND}, so a reader of a base GUID
 * tells the two apart by the first byte ({@link #isVariantRecord}).
 *
 * <p>Versions share the base GUID's sequence with the non-varying copies that may be stored there
 * before or after, so the verifier's {@link VersionFloor} refuses a replayed older record as it does
 * an older object.
 *
 * @param varyFields the lower-case field names the responses vary on, sorted, unique, never "*"
 */
public record VariantRecord(PublicKey provider, Id guid, String canonicalUrl, List<String> varyFields, long version,
                            long issuedAtMillis, byte[] signature) {
    /** First byte of the stored form: distinct from every {@link CachedCopy} format. */
    public static final int KIND = 0x56;
    /** Version of the signed and stored layouts. */
    public static final int FORMAT = 1;
    /** Most fields one record may name; real responses vary on one to three. */
    public static final int MAX_FIELDS = 32;
    /** Longest field name accepted. */
    public static final int MAX_FIELD_BYTES = 256;
    // A different domain from the certificate's and the heartbeat's, so no signature passes for another's.
    static final String DOMAIN = "riptide/variant-record";

    public VariantRecord {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(guid, "guid");
        ObjectNames.checkObjectUrl(canonicalUrl);
        varyFields = List.copyOf(varyFields);
        checkFields(varyFields);
        if (version < 1) {
            throw new IllegalArgumentException("versions start at 1, got " + version);
        }
        if (issuedAtMillis < 0) {
            throw new IllegalArgumentException("negative issue time " + issuedAtMillis);
        }
        signature = Encoding.copyExact(signature, SigningKey.SIGNATURE_BYTES, "signature");
    }

    // One spelling per set of names, so that equal sets sign equal bytes and compare equal.
    private static void checkFields(List<String> fields) {
        if (fields.isEmpty() || fields.size() > MAX_FIELDS) {
            throw new IllegalArgumentException("a variant record names 1 to " + MAX_FIELDS + " fields, got " + fields.size());
        }
        String previous = "";
        for (String f : fields) {
            if (f.isEmpty() || f.length() > MAX_FIELD_BYTES || !f.chars().allMatch(VariantRecord::tokenChar)) {
                throw new IllegalArgumentException("not a lower-case field name: '" + f + "'");
            }
            if (f.compareTo(previous) <= 0) {
                throw new IllegalArgumentException("field names must be sorted and unique: " + fields);
            }
            previous = f;
        }
    }

    // RFC 9110 §5.6.2 tchar, upper case excluded ("*" is a tchar too, but Vary: * is never stored).
    private static boolean tokenChar(int c) {
        return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || "!#$%&'+-.^_`|~".indexOf(c) >= 0;
    }

    /** {@code provider}'s record that {@code canonicalUrl} varies on {@code varyFields} (any order or case). */
    public static VariantRecord sign(SigningKey provider, String canonicalUrl, List<String> varyFields, long version,
                                     long issuedAtMillis) {
        PublicKey key = provider.publicKey();
        List<String> fields = varyFields.stream().map(f -> f.toLowerCase(Locale.ROOT)).distinct().sorted().toList();
        VariantRecord unsigned = new VariantRecord(key, ObjectNames.objectGuid(key, canonicalUrl, ""), canonicalUrl, fields,
                version, issuedAtMillis, new byte[SigningKey.SIGNATURE_BYTES]);
        return unsigned.withSignature(provider.sign(unsigned.signedBytes()));
    }

    /** This record with {@code newSignature} in place of its own (for tests of forgery). */
    public VariantRecord withSignature(byte[] newSignature) {
        return new VariantRecord(provider, guid, canonicalUrl, varyFields, version, issuedAtMillis, newSignature);
    }

    /** The bytes the provider signs (layout in the class comment). */
    public byte[] signedBytes() {
        return Encoding.write(128 + canonicalUrl.length() + 32 * varyFields.size(),
                out -> writeFields(out.string(DOMAIN).u8(FORMAT)));
    }

    private void writeFields(WireWriter out) {
        out.bytes(provider.toBytes()).id(guid).string(canonicalUrl).list(varyFields, (w, f) -> w.string(f))
                .i64(version).i64(issuedAtMillis);
    }

    /** Whether the signature is the provider's over {@link #signedBytes()}. */
    public boolean signatureValid() {
        return provider.verify(signedBytes(), signature);
    }

    /** The GUID the URL hashes to (variant ""); a genuine record's {@link #guid()} equals it. */
    public Id nameGuid() {
        return ObjectNames.objectGuid(provider, canonicalUrl, "");
    }

    /** The stored form (layout in the class comment). */
    public byte[] toBytes() {
        return Encoding.write(160 + canonicalUrl.length() + 32 * varyFields.size(), out -> {
            writeFields(out.u8(KIND).u8(FORMAT));
            out.bytes(signature);
        });
    }

    /** Whether {@code data}, a replica's bytes, is a variant record rather than a cached copy. */
    public static boolean isVariantRecord(byte[] data) {
        return data.length > 0 && (data[0] & 0xff) == KIND;
    }

    /** Reads the stored form; any other length, an unknown format or an out-of-range field is refused. */
    public static VariantRecord fromBytes(byte[] data) throws ObjectFormatException {
        return Encoding.read(data, "variant record", in -> {
            if (in.u8() != KIND) {
                throw new WireException("not a variant record");
            }
            Encoding.formatVersion(in, FORMAT, "variant record");
            return new VariantRecord(Encoding.publicKey(in), in.id(), in.string(Encoding.MAX_TEXT_BYTES),
                    in.list(MAX_FIELDS, r -> r.string(MAX_FIELD_BYTES)), in.i64(), in.i64(),
                    Encoding.fixed(in, SigningKey.SIGNATURE_BYTES, "signature"));
        });
    }

    @Override
    public byte[] signature() {
        return signature.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VariantRecord r && provider.equals(r.provider) && guid.equals(r.guid)
                && canonicalUrl.equals(r.canonicalUrl) && varyFields.equals(r.varyFields) && version == r.version
                && issuedAtMillis == r.issuedAtMillis && Arrays.equals(signature, r.signature);
    }

    @Override
    public int hashCode() {
        return guid.hashCode() * 31 + Arrays.hashCode(signature);
    }

    @Override
    public String toString() {
        return "VariantRecord[" + guid.shortHex() + " v" + version + " " + canonicalUrl + " varies on " + varyFields + "]";
    }
}
