package io.riptide.simulator.agents;

import io.riptide.core.http.Headers;
import io.riptide.core.http.HttpDates;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

/**
 * A document a simulated origin serves: its size, the freshness lifetime it declares
 * ({@code Cache-Control: max-age}) and how often its content changes (zero: never). The content of
 * each version is derived from the version number alone, so runs are reproducible.
 */
public record OriginDocument(String url, int sizeBytes, long maxAgeSeconds, Duration changeEvery) {
    public OriginDocument {
        if (sizeBytes < 1 || maxAgeSeconds < 0 || changeEvery.isNegative()) {
            throw new IllegalArgumentException("invalid document: " + url);
        }
    }

    /** The version current at wall-clock time {@code millis}: it changes every {@link #changeEvery}. */
    public long versionAt(long millis) {
        return changeEvery.isZero() ? 0 : Math.floorDiv(millis, changeEvery.toMillis());
    }

    /** The body of {@code version}: its number repeated to the document's size. */
    public byte[] body(long version) {
        byte[] body = new byte[sizeBytes];
        byte[] stamp = ("v" + version + " of " + url + "\n").getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < sizeBytes; i += stamp.length) {
            System.arraycopy(stamp, 0, body, i, Math.min(stamp.length, sizeBytes - i));
        }
        return body;
    }

    /** The response headers as the origin sends them at {@code millis}. */
    public Headers headers(long millis) {
        return Headers.of("Content-Type", "text/html", "Cache-Control", "max-age=" + maxAgeSeconds,
                "Date", HttpDates.format(Instant.ofEpochMilli(millis)));
    }
}
