package io.riptide.simulator.agents;

import io.riptide.core.http.CachedResponse;
import io.riptide.core.http.Freshness;
import io.riptide.core.http.Headers;
import io.riptide.core.http.HttpDates;
import io.riptide.core.http.ServeDecision;
import io.riptide.core.http.ServeRules;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.Heartbeat;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.ObjectFormatException;
import io.riptide.core.object.PushMode;
import java.time.Instant;

/**
 * The proxy's decision whether a replica's copy may be served, without the signature checks: RFC
 * 9111 on the certificate's headers and times, a heartbeat counting as a revalidation at its issue
 * time, and push mode's bound on the newest heartbeat or update. Signatures are not verified because
 * every replica in the simulation is honest; verifying costs real CPU and changes no virtual time.
 */
final class FreshnessJudge {
    private static final int MAX_BODY_BYTES = 16 * 1024 * 1024;
    private final ServeRules rules = new ServeRules(new Freshness());
    private final PushMode pushMode;

    FreshnessJudge(PushMode pushMode) {
        this.pushMode = pushMode;
    }

    /** The copy in a replica's bytes, or null if they are not one. */
    CachedCopy decode(byte[] data) {
        try {
            return CachedCopy.fromBytes(data, MAX_BODY_BYTES);
        } catch (ObjectFormatException | RuntimeException e) {
            return null;
        }
    }

    /** Whether the proxy would serve {@code copy} for {@code url} at wall-clock {@code nowMillis}. */
    boolean servable(String url, CachedCopy copy, long nowMillis) {
        ObjectCertificate cert = copy.object().certificate();
        Headers headers = cert.headers();
        Instant requestTime = Instant.ofEpochMilli(cert.requestTimeMillis());
        Instant responseTime = Instant.ofEpochMilli(cert.responseTimeMillis());
        long newestSignal = cert.responseTimeMillis();
        if (copy.heartbeat().isPresent()) {
            Heartbeat hb = copy.heartbeat().get();
            newestSignal = Math.max(newestSignal, hb.issuedAtMillis());
            Instant at = Instant.ofEpochMilli(hb.issuedAtMillis());
            headers = headers.with("Date", HttpDates.format(at)).without("Age");
            requestTime = at;
            responseTime = at;
        }
        ServeDecision d = rules.decide(new CachedResponse(cert.statusCode(), headers, requestTime, responseTime), Headers.EMPTY,
                Instant.ofEpochMilli(nowMillis));
        return switch (d.action()) {
            case SERVE_FRESH, SERVE_STALE, SERVE_STALE_WHILE_REVALIDATE -> true;
            default -> pushMode.covers(url) && nowMillis - newestSignal <= pushMode.bound().toMillis();
        };
    }
}
