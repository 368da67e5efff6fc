package io.riptide.gateway.insert;

import io.riptide.core.id.Id;

/**
 * What a purge came to: {@code guid} and {@code version} name the tombstone at the URL's base GUID
 * (zero when none was signed), {@code variants} how many variants' tombstones went with it.
 */
public record PurgeResult(Outcome outcome, String url, Id guid, long version, int variants, String message) {
    /** How a purge ended. */
    public enum Outcome {
        /** Tombstones signed, stored here and sent down the object's tree. */
        PURGED,
        /** The overlay already holds this provider's tombstone for the URL; nothing new was signed. */
        ALREADY_PURGED,
        /** Nothing of the URL is cached under this gateway's provider key, so there is nothing to take down. */
        NOT_CACHED,
        /** Not a URL a gateway fetches (malformed, not http or https). */
        INVALID_URL,
        /** The overlay could not say what it holds (a read timed out), or the signing stage was full: ask again. */
        RETRY
    }

    /** Whether the URL is purged after this (newly or before). */
    public boolean ok() {
        return outcome == Outcome.PURGED || outcome == Outcome.ALREADY_PURGED;
    }
}
