package io.riptide.proxy.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.netty.buffer.Unpooled;
import io.riptide.core.http.Headers;
import io.riptide.core.http.HttpDates;
import io.riptide.core.id.Id;
import io.riptide.core.object.PushMode;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The memory tier's shortcut agrees with the full judgement: for a request without directives, a copy
 * is fresh by its {@link CopyJudge.FreshWindow} exactly when {@link CopyJudge#judge} serves it fresh,
 * with the same Age, across lifetimes, Age fields, Date skew, no-cache and heuristic freshness.
 */
class FreshWindowTest {
    private static final long T0 = 1_800_000_000_000L;
    private final CopyJudge judge = new CopyJudge(PushMode.NONE);

    private static VerifiedCopy copy(long requested, long received, String... fields) {
        return new VerifiedCopy(200, "OK", Headers.of(fields), requested, received, received);
    }

    @Test
    void theWindowDecidesAsTheJudgeDoesForARequestWithoutDirectives() {
        String date = HttpDates.format(Instant.ofEpochMilli(T0));
        String earlyDate = HttpDates.format(Instant.ofEpochMilli(T0 - 30_000));
        List<VerifiedCopy> copies = List.of(
                copy(T0, T0, "Date", date, "Cache-Control", "max-age=60"),
                copy(T0 - 400, T0, "Date", date, "Cache-Control", "max-age=60", "Age", "25"),
                copy(T0, T0, "Date", earlyDate, "Cache-Control", "max-age=60"),
                copy(T0, T0, "Date", date, "Cache-Control", "max-age=60, no-cache"),
                copy(T0, T0, "Date", date, "Cache-Control", "s-maxage=10, max-age=600"),
                copy(T0, T0, "Date", date, "Expires", HttpDates.format(Instant.ofEpochMilli(T0 + 90_000))),
                copy(T0, T0, "Date", date, "Last-Modified", HttpDates.format(Instant.ofEpochMilli(T0 - 1_000_000))),
                copy(T0, T0, "Date", date, "Cache-Control", "max-age=0"),
                copy(T0, T0, "Date", date));
        int checked = 0;
        for (VerifiedCopy c : copies) {
            CopyJudge.FreshWindow window = judge.window(c);
            for (long now = T0 - 5_000; now <= T0 + 200_000; now += 997) {
                LookupResult full = judge.judge(c, Unpooled.wrappedBuffer(new byte[1]), "http://example.com/", Headers.EMPTY,
                        Instant.ofEpochMilli(now), new LookupResult.Found(Id.hash("x"), true, 1, false, null, 0));
                boolean servedFresh = full.served() && full.status().equals(CacheStatus.HIT);
                assertEquals(servedFresh, window.freshAt(now), c + " at +" + (now - T0) + " ms");
                if (servedFresh) {
                    assertEquals(full.answer().headers().first("Age").orElseThrow(), Long.toString(window.ageSecondsAt(now)),
                            c + " at +" + (now - T0) + " ms");
                }
                full.release();
                checked++;
            }
        }
        assertEquals(copies.size() * 206, checked);
    }
}
