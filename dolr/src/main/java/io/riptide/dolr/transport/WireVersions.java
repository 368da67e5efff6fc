package io.riptide.dolr.transport;

import io.riptide.core.wire.Frames;
import java.util.OptionalInt;

/**
 * The wire versions a node speaks, {@code min} to {@code max}. A link runs at the highest version
 * both ends speak; a peer with none in common is refused in the handshake. A node of the previous
 * release speaks version 8 alone.
 *
 * @param min the oldest version spoken, at least {@link Frames#OLDEST_VERSION}
 * @param max the newest version spoken, at most {@link Frames#VERSION}
 */
public record WireVersions(int min, int max) {
    public WireVersions {
        if (min < Frames.OLDEST_VERSION || max > Frames.VERSION || min > max) {
            throw new IllegalArgumentException("wire versions " + min + "–" + max + " are not within the "
                    + Frames.OLDEST_VERSION + "–" + Frames.VERSION + " this build speaks");
        }
    }

    /** Every version this build speaks: the default. */
    public static WireVersions all() {
        return new WireVersions(Frames.OLDEST_VERSION, Frames.VERSION);
    }

    /** Version {@code version} alone. */
    public static WireVersions only(int version) {
        return new WireVersions(version, version);
    }

    /** The highest version spoken by both this and {@code peer}, if any. */
    OptionalInt highestCommon(Offer peer) {
        int top = Math.min(max, peer.max());
        return top >= Math.max(min, peer.min()) ? OptionalInt.of(top) : OptionalInt.empty();
    }

    /** Why a peer that offered {@code peer} is refused: no version in common, naming both ranges. */
    String noneInCommon(Offer peer) {
        return "no wire version in common: this node speaks " + this + ", the peer " + peer;
    }

    /** What this node's Hello offers. */
    Offer offer() {
        return new Offer(min, max);
    }

    @Override
    public String toString() {
        return min + "–" + max;
    }

    /**
     * The versions a peer offered in its Hello. Unlike {@link WireVersions} it is not checked against
     * this build: a newer peer may offer versions this build has never heard of.
     */
    record Offer(int min, int max) {
        @Override
        public String toString() {
            return min + "–" + max;
        }
    }
}
