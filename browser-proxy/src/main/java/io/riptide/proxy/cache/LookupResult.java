package io.riptide.proxy.cache;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import java.time.Duration;

/**
 * What a cache lookup came to, and everything the rest of the request needs from it: an answer to
 * serve, a verified copy to revalidate with the origin first (RFC 9111 §4.3), or nothing, with the
 * {@code Cache-Status} saying why; and the copy it found, if any ({@link Found}), whose staleness the
 * hint after the origin's answer reports. Nothing about a lookup is kept anywhere else.
 *
 * @param kind   serve, validate or forward
 * @param status the Cache-Status of the response (a forwarded one's {@code fwd-status} added by the front)
 * @param answer the response to serve, for {@link Kind#SERVE}
 * @param stored the copy to revalidate, for {@link Kind#VALIDATE}
 * @param found  the verified copy the lookup found, or null
 */
public record LookupResult(Kind kind, CacheStatus status, Answer answer, Stored stored, Found found) {
    /** What the front does with the request. */
    public enum Kind {
        /** Answer from the cache ({@link #answer}): a hit, or the 504 of an only-if-cached request. */
        SERVE,
        /** Ask the origin to validate {@link #stored}, and serve it on a 304. */
        VALIDATE,
        /** Go to the origin. */
        FORWARD
    }

    /**
     * A response from the cache.
     *
     * @param headers    as stored, with {@code Age} unless {@code ageSeconds} says it; the front adds {@code Cache-Status}
     * @param body       the body, of which whoever receives the answer owns one reference: writing it to a
     *                   channel releases it, and an answer not served must be {@link #release released}. A
     *                   memory hit's body is a retained slice of the tier's off-heap buffer (no copy per hit).
     * @param ageSeconds the {@code Age} the front adds, or -1 when {@code headers} carry it. A memory hit
     *                   leaves it out of its headers, which are then the same object hit after hit, so the
     *                   front can keep their encoded form (see the front's prepared heads).
     */
    public record Answer(int status, String reason, Headers headers, ByteBuf body, long ageSeconds) {
        /** An answer whose headers carry their Age. */
        public Answer(int status, String reason, Headers headers, ByteBuf body) {
            this(status, reason, headers, body, -1);
        }

        /** An answer with a body on the heap (nothing to release). */
        public Answer(int status, String reason, Headers headers, byte[] body) {
            this(status, reason, headers, Unpooled.wrappedBuffer(body));
        }

        /** Gives the body back, for an answer that will not be served. */
        public void release() {
            body.release();
        }
    }

    /**
     * A verified copy that needs validating before use.
     *
     * @param status       the stored status code
     * @param reason       the stored reason phrase, or null
     * @param headers      the stored header fields (as signed, with a heartbeat's Date), without Age or Cache-Status
     * @param body         the stored body
     * @param age          the copy's current age, for the Age of a copy served stale
     * @param staleIfError whether the copy may be served stale if the origin fails or answers 5xx (RFC 5861 §4)
     */
    public record Stored(int status, String reason, Headers headers, byte[] body, Duration age, boolean staleIfError) {
    }

    /**
     * The verified copy a lookup found.
     *
     * @param guid    the GUID it was read under
     * @param primary whether it is the primary provider's (only those are hinted and reported)
     * @param version its certified version
     * @param stale   whether the copy itself needed validating (not only the request's directives)
     * @param replica the node that served it, when the overlay says (a member's own read); else null
     * @param hops    overlay hops of the read
     */
    public record Found(Id guid, boolean primary, long version, boolean stale, NodeHandle replica, int hops) {
    }

    /** An answer from the cache. */
    public static LookupResult serve(CacheStatus status, Answer answer, Found found) {
        return new LookupResult(Kind.SERVE, status, answer, null, found);
    }

    /** A verified copy to revalidate. */
    public static LookupResult validate(CacheStatus status, Stored stored, Found found) {
        return new LookupResult(Kind.VALIDATE, status, null, stored, found);
    }

    /** No usable copy: the origin answers. */
    public static LookupResult forward(CacheStatus status) {
        return new LookupResult(Kind.FORWARD, status, null, null, null);
    }

    /** This result with {@code newStatus} as its Cache-Status. */
    public LookupResult withStatus(CacheStatus newStatus) {
        return new LookupResult(kind, newStatus, answer, stored, found);
    }

    /** Gives an answer's body back, for a result that will not be served; nothing for the other kinds. */
    public void release() {
        if (answer != null) {
            answer.release();
        }
    }

    /** Whether the front answers from the cache. */
    public boolean served() {
        return kind == Kind.SERVE;
    }

    /** Whether a verified copy usable for this request was found: served as a hit, or to revalidate. */
    boolean foundCopy() {
        return kind == Kind.VALIDATE || (kind == Kind.SERVE && status.hit());
    }

    /** Whether the copy found was stale, so the hint after the origin's answer says so. */
    public boolean wasStale() {
        return found != null && found.stale();
    }
}
