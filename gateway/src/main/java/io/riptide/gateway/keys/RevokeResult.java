package io.riptide.gateway.keys;

/** What a revocation handed to a gateway came to ({@code riptide revoke}), with a line saying so. */
public record RevokeResult(Outcome outcome, String message) {
    /** How a revocation ended. */
    public enum Outcome {
        /** Verified, published at the key-records GUIDs and sent down the trees of the objects the key signed. */
        REVOKED,
        /** The gateway already knew the key revoked; nothing new was sent. */
        ALREADY_REVOKED,
        /** Forged, signed by a key without standing, malformed, or not a key of this gateway's provider. */
        REFUSED
    }

    /** Whether the key is revoked after this (newly or before). */
    public boolean ok() {
        return outcome != Outcome.REFUSED;
    }
}
