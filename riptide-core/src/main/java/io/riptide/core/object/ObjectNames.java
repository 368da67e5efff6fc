package io.riptide.core.object;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.id.Id;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The GUIDs a provider names things by: web objects and its well-known services.
 *
 * <p>A GUID is {@link Id#hash} over length-prefixed parts (each a u32 big-endian byte count, then
 * the bytes): the provider's 32-byte key, then the canonical URL, then the variant key if there is
 * one. The prefixes make the split unambiguous ("a" + "bc" and "ab" + "c" name different objects).
 * Service names use the same form with a {@value #SERVICE_PREFIX} name in place of the URL; object
 * URLs may not use that prefix, so no object can take a service's GUID.
 */
public final class ObjectNames {
    /** The prefix reserved for service names. */
    public static final String SERVICE_PREFIX = "riptide:";
    /** The gateway service's name under each provider. */
    public static final String GATEWAY = SERVICE_PREFIX + "gateway";
    /** The cache-manager service's name under each provider. */
    public static final String CACHE_MANAGER = SERVICE_PREFIX + "cache-manager";
    /** The name under each provider where its gateways keep its {@link KeyRecords} (rotations, revocations). */
    public static final String KEYS = SERVICE_PREFIX + "keys";

    private ObjectNames() {
    }

    /**
     * The GUID of the object at {@code canonicalUrl} (already canonical: see
     * io.riptide.core.http.CanonicalUrl) in the variant {@code variantKey}, named by {@code provider}.
     * An empty variant key means the response does not vary, and hashes as no variant at all.
     */
    public static Id objectGuid(PublicKey provider, String canonicalUrl, String variantKey) {
        checkObjectUrl(canonicalUrl);
        Encoding.checkText(variantKey, "variant key");
        if (variantKey.isEmpty()) {
            return Id.hash(lengthPrefixed(provider.toBytes()), lengthPrefixed(utf8(canonicalUrl)));
        }
        return Id.hash(lengthPrefixed(provider.toBytes()), lengthPrefixed(utf8(canonicalUrl)),
                lengthPrefixed(utf8(variantKey)));
    }

    /** Refuses a URL that cannot name an object: empty, too long, or in the reserved service prefix. */
    static String checkObjectUrl(String canonicalUrl) {
        Encoding.checkText(canonicalUrl, "canonical URL");
        if (canonicalUrl.isEmpty() || canonicalUrl.startsWith(SERVICE_PREFIX)) {
            throw new IllegalArgumentException("not an object URL: '" + canonicalUrl + "'");
        }
        return canonicalUrl;
    }

    /** The well-known GUID of {@code provider}'s gateways. */
    public static Id gatewayGuid(PublicKey provider) {
        return serviceGuid(provider, GATEWAY);
    }

    /** The well-known GUID of {@code provider}'s cache managers. */
    public static Id cacheManagerGuid(PublicKey provider) {
        return serviceGuid(provider, CACHE_MANAGER);
    }

    /** The well-known GUID where {@code provider}'s key records are kept ({@link KeyRecords}). */
    public static Id keyRecordsGuid(PublicKey provider) {
        return serviceGuid(provider, KEYS);
    }

    private static Id serviceGuid(PublicKey provider, String service) {
        return Id.hash(lengthPrefixed(provider.toBytes()), lengthPrefixed(utf8(service)));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] lengthPrefixed(byte[] part) {
        return ByteBuffer.allocate(4 + part.length).putInt(part.length).put(part).array();
    }
}
