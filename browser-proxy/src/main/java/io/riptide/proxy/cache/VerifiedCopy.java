package io.riptide.proxy.cache;

import io.riptide.core.http.Headers;
import io.riptide.core.http.HttpDates;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.Heartbeat;
import io.riptide.core.object.ObjectCertificate;
import java.time.Instant;

/**
 * What RFC 9111 needs to know of a verified copy, its body aside: the certified response head and
 * times, with a verified heartbeat already applied as a revalidation at its issue time (§4.3.4). The
 * overlay's copies and the memory tier's are judged from this same form.
 *
 * @param status             the certified status code
 * @param reason             the certified reason phrase, or null
 * @param headers            the certified header fields (a heartbeat's {@code Date}, without {@code Age}, when it verified)
 * @param requestTimeMillis  when the response was requested (or the heartbeat issued)
 * @param responseTimeMillis when the response was received (or the heartbeat issued)
 * @param newestSignalMillis the newest time the provider vouched for this version: its response or heartbeat
 */
public record VerifiedCopy(int status, String reason, Headers headers, long requestTimeMillis, long responseTimeMillis,
                           long newestSignalMillis) {
    /** The form of {@code copy}, whose heartbeat counts if {@code heartbeatValid}. */
    static VerifiedCopy of(CachedCopy copy, boolean heartbeatValid) {
        ObjectCertificate cert = copy.object().certificate();
        if (!heartbeatValid) {
            return new VerifiedCopy(cert.statusCode(), cert.reasonPhrase(), cert.headers(), cert.requestTimeMillis(),
                    cert.responseTimeMillis(), cert.responseTimeMillis());
        }
        // The provider saying "still current at t": as if revalidated then.
        Heartbeat hb = copy.heartbeat().orElseThrow();
        long at = hb.issuedAtMillis();
        Headers headers = cert.headers().with("Date", HttpDates.format(Instant.ofEpochMilli(at))).without("Age");
        return new VerifiedCopy(cert.statusCode(), cert.reasonPhrase(), headers, at, at,
                Math.max(cert.responseTimeMillis(), at));
    }
}
