package io.riptide.proxy.cache;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.riptide.core.crypto.PublicKey;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.VariantKey;
import io.riptide.core.id.Id;
import io.riptide.core.object.ObjectNames;
import java.util.Optional;

/**
 * A URL's names, remembered for the hot ones: its canonical form, and its GUIDs under a provider.
 * Both are pure functions of their input, worth keeping because the memory tier answers a hot URL tens
 * of thousands of times a second and each answer would otherwise parse the URL and hash it again.
 * Bounded; thread-safe.
 */
final class UrlNames {
    /** Enough for the URLs a busy proxy serves from memory; each entry is a few hundred bytes. */
    static final int MAX_URLS = 16_384;

    private final Cache<String, Optional<CanonicalUrl>> canonical = Caffeine.newBuilder().maximumSize(MAX_URLS)
            .executor(Runnable::run).build();
    private final Cache<BaseKey, Id> bases = Caffeine.newBuilder().maximumSize(MAX_URLS).executor(Runnable::run).build();

    private final Cache<VariantName, Id> variants = Caffeine.newBuilder().maximumSize(MAX_URLS).executor(Runnable::run).build();

    private static final byte[] PRIVATE = "riptide-proxy-private\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    private final Cache<String, Id> privateBases = Caffeine.newBuilder().maximumSize(MAX_URLS).executor(Runnable::run).build();

    private record BaseKey(PublicKey provider, String canonicalUrl) {
    }

    private record VariantName(PublicKey provider, String canonicalUrl, VariantKey variant) {
    }

    /** {@code url} in canonical form, or null if it cannot name an object. */
    CanonicalUrl canonical(String url) {
        return canonical.get(url, u -> {
            try {
                return Optional.of(CanonicalUrl.of(u));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        }).orElse(null);
    }

    /** The GUID of {@code canonicalUrl}'s {@code variant} under {@code provider}. */
    Id variant(PublicKey provider, String canonicalUrl, VariantKey variant) {
        return variants.get(new VariantName(provider, canonicalUrl, variant),
                k -> ObjectNames.objectGuid(k.provider(), k.canonicalUrl(), k.variant().toString()));
    }

    /**
     * The GUID the proxy keeps its own fetch of {@code canonicalUrl}'s {@code variant} under: a hash no
     * provider's object name can equal (those hash a public key first), so a private copy is never
     * mistaken for a verified one, nor offered to anyone.
     */
    static Id privateName(String canonicalUrl, VariantKey variant) {
        return Id.hash(PRIVATE, canonicalUrl.getBytes(java.nio.charset.StandardCharsets.UTF_8), new byte[] {0},
                variant.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    /** {@link #privateName} of the base object ({@link VariantKey#NONE}), remembered. */
    Id privateBase(String canonicalUrl) {
        return privateBases.get(canonicalUrl, u -> privateName(u, VariantKey.NONE));
    }

    /** The GUID of {@code canonicalUrl}'s base object under {@code provider}. */
    Id base(PublicKey provider, String canonicalUrl) {
        return bases.get(new BaseKey(provider, canonicalUrl), k -> ObjectNames.objectGuid(k.provider(), k.canonicalUrl(), ""));
    }
}
