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

    /**
     * The version whose body {@code body} is, byte for byte, or -1 if it is no version of this
     * document (a corrupt, truncated or foreign body).
     */
    public long versionOf(byte[] body) {
        if (body == null || body.length != sizeBytes || body.length < 2 || body[0] != 'v') {
            return -1;
        }
        int end = 1;
        while (end < body.length && end < 21 && body[end] >= '0' && body[end] <= '9') {
            end++;
        }
        if (end == 1) {
            return -1;
        }
        long version;
        try {
            version = Long.parseLong(new String(body, 1, end - 1, StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            return -1;
        }
        return java.util.Arrays.equals(body, body(version)) ? version : -1;
    }

    /** The response headers as the origin sends them at {@code millis}. */
    public Headers headers(long millis) {
        return Headers.of("Content-Type", "text/html", "Cache-Control", "max-age=" + maxAgeSeconds,
                "Date", HttpDates.format(Instant.ofEpochMilli(millis)));
    }
}
