package io.riptide.dolr.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.riptide.core.wire.Frames;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** What a node offers in its nonce, and the version it agrees with each kind of peer. */
class WireVersionsTest {
    private static final SecureRandom RANDOM = new SecureRandom();

    @Test
    void aNodeSpeaksOnlyVersionsThisBuildSpeaks() {
        assertEquals(new WireVersions(Frames.OLDEST_VERSION, Frames.VERSION), WireVersions.all());
        assertThrows(IllegalArgumentException.class, () -> new WireVersions(7, 9));
        assertThrows(IllegalArgumentException.class, () -> new WireVersions(8, Frames.VERSION + 1));
        assertThrows(IllegalArgumentException.class, () -> new WireVersions(9, 8));
    }

    @Test
    void theLinkRunsAtTheHighestVersionBothSpeak() {
        WireVersions all = WireVersions.all();
        assertEquals(OptionalInt.of(8), all.highestCommon(VersionOffer.LEGACY));
        assertEquals(OptionalInt.of(9), all.highestCommon(new WireVersions.Offer(8, 9)));
        assertEquals(OptionalInt.of(9), all.highestCommon(new WireVersions.Offer(9, 12)), "a newer peer still speaks 9");
        assertEquals(OptionalInt.empty(), all.highestCommon(new WireVersions.Offer(10, 12)));
        assertEquals(OptionalInt.empty(), WireVersions.only(9).highestCommon(VersionOffer.LEGACY));
        assertEquals(OptionalInt.empty(), all.highestCommon(new WireVersions.Offer(9, 8)), "a malformed offer offers nothing");
    }

    @Test
    void theNonceCarriesTheOfferAndStaysFresh() {
        byte[] first = VersionOffer.nonce(WireVersions.all(), RANDOM);
        byte[] second = VersionOffer.nonce(WireVersions.all(), RANDOM);
        assertEquals(new WireVersions.Offer(8, 9), VersionOffer.of(first));
        assertFalse(Arrays.equals(first, second), "the rest of the nonce is random");
        assertEquals(new WireVersions.Offer(9, 9), VersionOffer.of(VersionOffer.nonce(WireVersions.only(9), RANDOM)));
        // Version 8 alone: an all-random nonce, as the previous release sends, read as 8 alone.
        assertEquals(VersionOffer.LEGACY, VersionOffer.of(VersionOffer.nonce(WireVersions.only(8), RANDOM)));
        assertEquals(VersionOffer.LEGACY, VersionOffer.of(new byte[Hello.NONCE_BYTES]));
    }
}
