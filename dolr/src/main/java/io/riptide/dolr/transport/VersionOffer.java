package io.riptide.dolr.transport;

import io.riptide.core.wire.Frames;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Arrays;

/**
 * How a {@link Hello} offers wire versions without a field a version-8 node would refuse. A node of
 * version 8 reads a Hello of exactly a 32-byte nonce and a 32-byte key and refuses anything else, and
 * its nonce is only ever compared, signed and hashed. So a node that speaks more than version 8 puts
 * its offer in the nonce: an 8-byte marker, the oldest and newest version (a byte each), then 22
 * random bytes, still far too many to repeat. A nonce without the marker (all random, as a version-8
 * node sends) offers version 8 alone, as does that of a node that speaks 8 alone, so such a node's
 * Hello is byte for byte the previous release's. Both nonces are in the signed transcript and in the
 * link's keys, so a relay that altered an offer would fail both proofs: the offer can't be downgraded.
 */
final class VersionOffer {
    private static final byte[] MARKER = "rptd/ver".getBytes(StandardCharsets.US_ASCII);
    private static final int MIN_AT = MARKER.length;
    private static final int MAX_AT = MIN_AT + 1;
    /** What a nonce without the marker offers: the previous release's only version. */
    static final WireVersions.Offer LEGACY = new WireVersions.Offer(Frames.OLDEST_VERSION, Frames.OLDEST_VERSION);

    private VersionOffer() {
    }

    /** A fresh nonce offering {@code versions}: all random when that is version 8 alone. */
    static byte[] nonce(WireVersions versions, SecureRandom random) {
        byte[] nonce = new byte[Hello.NONCE_BYTES];
        random.nextBytes(nonce);
        if (versions.offer().equals(LEGACY)) {
            return nonce;
        }
        System.arraycopy(MARKER, 0, nonce, 0, MARKER.length);
        nonce[MIN_AT] = (byte) versions.min();
        nonce[MAX_AT] = (byte) versions.max();
        return nonce;
    }

    /**
     * What {@code nonce} offers. A version-8 node's random nonce carries the marker once in 2^64
     * handshakes; then the two ends may disagree on the version and the handshake fails, to be retried
     * with fresh nonces.
     */
    static WireVersions.Offer of(byte[] nonce) {
        if (!Arrays.equals(nonce, 0, MARKER.length, MARKER, 0, MARKER.length)) {
            return LEGACY;
        }
        int min = Byte.toUnsignedInt(nonce[MIN_AT]);
        int max = Byte.toUnsignedInt(nonce[MAX_AT]);
        // A malformed offer (min above max) offers nothing, so the peer is refused as having no version in common.
        return new WireVersions.Offer(min, max);
    }
}
