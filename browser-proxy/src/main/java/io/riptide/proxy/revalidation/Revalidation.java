package io.riptide.proxy.revalidation;

import io.riptide.core.http.ConditionalRequest;
import io.riptide.core.http.Headers;
import io.riptide.core.http.Validators;
import io.riptide.proxy.cache.LookupResult.Stored;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Revalidating a stored copy with the origin (RFC 9111 §4.3), as state a front drives: which
 * conditions go up, and what the origin's answer means for the browser. Knows no transport: the
 * Netty front applies it to a streamed exchange, the simulator's proxies to whole responses.
 *
 * <p>The copy's validators are merged into the browser's own conditions (§4.3.1, §4.3.2): with no
 * If-None-Match from the browser, the copy's ETag and Last-Modified become If-None-Match and
 * If-Modified-Since (a browser's If-Modified-Since is replaced, since the 304 must speak for the
 * copy); beside the browser's entity tags, the copy's are added to the list. A request whose
 * conditions a 304 could not answer for the copy (Range, If-Range, If-Match, If-Unmodified-Since)
 * goes up as the browser sent it. A 304 reaches the browser only when it answers the browser's own
 * conditions; one about the copy is answered with the copy, freshened by the 304's fields (§4.3.4);
 * one about neither is asked again without conditions, once. A 5xx (or no answer) is covered by the
 * copy's stale-if-error (RFC 5861 §4).
 */
public final class Revalidation {
    /** What the origin's answer comes to. */
    public enum Verdict {
        /** The browser gets the origin's response as it is. */
        PASS,
        /** A 304 about the copy: the browser gets the copy, {@link #freshened()}. */
        NOT_MODIFIED,
        /** A 5xx the copy's stale-if-error covers, or a 304 about a version nobody holds: the copy stale, or 502. */
        ERROR,
        /** A 304 that answers neither the copy's conditions nor the browser's: ask once more, unconditionally. */
        ASK_AGAIN
    }

    private static final List<String> CONDITIONS = List.of("If-None-Match", "If-Modified-Since");

    private final Stored stored;
    private final Headers browser;
    private final Map<String, String> conditions;
    private final boolean ownValidators;
    private boolean unconditional;
    private Headers notModified = Headers.EMPTY;

    private Revalidation(Stored stored, Headers browser, Map<String, String> conditions, boolean ownValidators) {
        this.stored = stored;
        this.browser = browser;
        this.conditions = conditions;
        this.ownValidators = ownValidators;
    }

    /** Revalidation of {@code stored} for a browser request with {@code browserRequest}'s fields. */
    public static Revalidation of(Stored stored, Headers browserRequest) {
        Map<String, String> set = new LinkedHashMap<>();
        boolean own = false;
        boolean unmergeable = browserRequest.contains("Range") || browserRequest.contains("If-Range")
                || browserRequest.contains("If-Match") || browserRequest.contains("If-Unmodified-Since");
        ConditionalRequest mine = Validators.conditionalRequest(stored.headers());
        if (!unmergeable && mine.hasValidators()) {
            List<String> clientTags = browserRequest.elements("If-None-Match");
            if (clientTags.isEmpty()) {
                mine.ifNoneMatch().ifPresent(v -> set.put("If-None-Match", v));
                mine.ifModifiedSince().ifPresent(v -> set.put("If-Modified-Since", v));
                own = true;
            } else if (mine.ifNoneMatch().isPresent() && !clientTags.contains("*")) {
                // The union of the browser's entity tags and the copy's. If-Modified-Since stays the
                // browser's: beside If-None-Match the origin ignores it anyway.
                List<String> union = new ArrayList<>(clientTags);
                for (String tag : mine.ifNoneMatch().get().split(",\\s*")) {
                    if (!union.contains(tag)) {
                        union.add(tag);
                    }
                }
                set.put("If-None-Match", String.join(", ", union));
                own = true;
            }
            // Else the browser's If-None-Match cannot carry a Last-Modified date: its own question goes up alone.
        }
        return new Revalidation(stored, browserRequest, set, own);
    }

    /** The request fields to set on the origin's request (replacing the browser's), in order. */
    public Map<String, String> conditions() {
        return Map.copyOf(conditions);
    }

    /** The copy being revalidated. */
    public Stored stored() {
        return stored;
    }

    /**
     * What the origin's answer, {@code status} with head fields {@code head} (hop-by-hop removed),
     * means at {@code now}. {@code mayAskAgain}: the browser's request is complete and had no body,
     * so it can be sent once more.
     */
    public Verdict judge(int status, Headers head, Instant now, boolean mayAskAgain) {
        if (status == 304) {
            if (unconditional) {
                return Verdict.ERROR; // a 304 to a request with no conditions answers nothing
            }
            boolean aboutCopy = ownValidators && Validators.selects(head, stored.headers(), now);
            boolean browserAsked = browser.contains("If-None-Match") || browser.contains("If-Modified-Since");
            if (aboutCopy) {
                Headers freshened = Validators.freshen(stored.headers(), head);
                if (browserAsked && Validators.notModified(browser, freshened, now)) {
                    return Verdict.PASS; // the browser's own copy is current too: it gets the 304
                }
                notModified = head;
                return Verdict.NOT_MODIFIED;
            }
            if (!ownValidators) {
                return Verdict.PASS; // the browser's request went up as it was sent: the 304 is its answer
            }
            if (browserAsked && Validators.notModified(browser, head, now)) {
                return Verdict.PASS; // about the browser's version, by its own validators
            }
            // About some version neither holds: no answer the browser (or the copy) can use.
            return mayAskAgain ? Verdict.ASK_AGAIN : Verdict.ERROR;
        }
        boolean error = status == 500 || status == 502 || status == 503 || status == 504;
        return error && stored.staleIfError() ? Verdict.ERROR : Verdict.PASS;
    }

    /**
     * Gives up the conditions for one unconditional request (after {@link Verdict#ASK_AGAIN}); returns
     * the request fields to remove, the browser's own conditions included.
     */
    public List<String> askAgain() {
        unconditional = true;
        return CONDITIONS;
    }

    /** After {@link Verdict#NOT_MODIFIED}: the copy's fields updated from the 304, {@code Age: 0} unless the 304 says otherwise. */
    public Headers freshened() {
        Headers freshened = Validators.freshen(stored.headers(), notModified);
        // Just validated: its age starts again, unless the 304 came through a cache that says otherwise.
        return notModified.contains("Age") ? freshened : freshened.with("Age", "0");
    }

    /** The copy served stale after an origin failure (stale-if-error), with its current age. */
    public Headers staleHeaders() {
        return stored.headers().with("Age", Long.toString(stored.age().getSeconds()));
    }
}
