package io.riptide.proxy.revalidation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.http.Headers;
import io.riptide.proxy.cache.LookupResult.Stored;
import io.riptide.proxy.revalidation.Revalidation.Verdict;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The revalidation state on its own, without a front (RFC 9111 §4.3): which conditions go up for
 * which browser request, and what each answer of the origin means for the browser.
 */
class RevalidationStateTest {
    private static final Instant NOW = Instant.parse("2026-11-25T12:00:00Z");
    private static final String LAST_MODIFIED = "Mon, 23 Nov 2026 10:00:00 GMT";

    private static Stored copy(boolean staleIfError, String... headers) {
        return new Stored(200, "OK", Headers.of(headers), "the copy".getBytes(), Duration.ofSeconds(90), staleIfError);
    }

    private static final Stored TAGGED = copy(false, "ETag", "\"v1\"", "Last-Modified", LAST_MODIFIED, "Cache-Control", "max-age=60");

    @Test
    void theCopysValidatorsGoUpWhenTheBrowserSentNone() {
        Revalidation r = Revalidation.of(TAGGED, Headers.EMPTY);
        assertEquals(Map.of("If-None-Match", "\"v1\"", "If-Modified-Since", LAST_MODIFIED), r.conditions());
    }

    @Test
    void theBrowsersEntityTagsAreMergedWithTheCopys() {
        Revalidation r = Revalidation.of(TAGGED, Headers.of("If-None-Match", "\"v0\""));
        assertEquals(Map.of("If-None-Match", "\"v0\", \"v1\""), r.conditions());
    }

    @Test
    void aRangeOrAPreconditionGoesUpAsTheBrowserSentIt() {
        for (String field : List.of("Range", "If-Range", "If-Match", "If-Unmodified-Since")) {
            assertTrue(Revalidation.of(TAGGED, Headers.of(field, "x")).conditions().isEmpty(), field);
        }
        assertTrue(Revalidation.of(copy(false, "Cache-Control", "max-age=60"), Headers.EMPTY).conditions().isEmpty(),
                "a copy without validators cannot be asked about");
    }

    @Test
    void aNotModifiedAboutTheCopyServesItFreshened() {
        Revalidation r = Revalidation.of(TAGGED, Headers.EMPTY);
        assertEquals(Verdict.NOT_MODIFIED, r.judge(304, Headers.of("ETag", "\"v1\"", "Cache-Control", "max-age=120"), NOW, true));
        Headers freshened = r.freshened();
        assertEquals("max-age=120", freshened.first("Cache-Control").orElseThrow(), "the 304's fields update the copy's");
        assertEquals("0", freshened.first("Age").orElseThrow(), "just validated");
    }

    @Test
    void aNotModifiedTheBrowsersOwnConditionMatchesPassesThrough() {
        Revalidation r = Revalidation.of(TAGGED, Headers.of("If-None-Match", "\"v1\""));
        assertEquals(Verdict.PASS, r.judge(304, Headers.of("ETag", "\"v1\""), NOW, true));
    }

    @Test
    void aNotModifiedAboutNoKnownVersionIsAskedAgainOnceThenAnError() {
        Revalidation r = Revalidation.of(TAGGED, Headers.EMPTY);
        assertEquals(Verdict.ASK_AGAIN, r.judge(304, Headers.of("ETag", "\"v9\""), NOW, true));
        assertEquals(List.of("If-None-Match", "If-Modified-Since"), r.askAgain());
        assertEquals(Verdict.ERROR, r.judge(304, Headers.of("ETag", "\"v9\""), NOW, true), "a 304 to no condition answers nothing");
        assertEquals(Verdict.ERROR, Revalidation.of(TAGGED, Headers.EMPTY).judge(304, Headers.of("ETag", "\"v9\""), NOW, false),
                "a request with a body cannot be sent again");
    }

    @Test
    void serverErrorsAreCoveredOnlyByStaleIfError() {
        Stored lenient = copy(true, "ETag", "\"v1\"");
        assertEquals(Verdict.ERROR, Revalidation.of(lenient, Headers.EMPTY).judge(503, Headers.EMPTY, NOW, true));
        assertEquals(Verdict.PASS, Revalidation.of(TAGGED, Headers.EMPTY).judge(503, Headers.EMPTY, NOW, true));
        assertEquals(Verdict.PASS, Revalidation.of(lenient, Headers.EMPTY).judge(200, Headers.EMPTY, NOW, true));
        assertEquals("90", Revalidation.of(lenient, Headers.EMPTY).staleHeaders().first("Age").orElseThrow(), "its real age");
    }
}
