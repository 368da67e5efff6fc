package io.riptide.proxy.hints;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.gateway.GatewayMessages.InsertRequest;
import io.riptide.core.hint.HintMessages.LatencyHint;
import io.riptide.core.hint.HintMessages.MissHint;
import io.riptide.core.hint.HintMessages.SeenHint;
import io.riptide.core.hint.HintMessages.StaleHint;
import io.riptide.core.http.Headers;
import io.riptide.core.http.VariantKey;
import io.riptide.core.http.Variants;
import io.riptide.core.id.Id;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.runtime.Env;
import io.riptide.core.throttle.Throttle;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.client.OverlayAccess;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * What the proxy tells the primary provider's nearest cache manager (paper §4.3): a miss or a stale
 * copy (the manager has a gateway insert or re-check the URL; where no manager runs, the access node
 * sends the nearest gateway the insert request itself), and a hit slower than the threshold (the
 * manager places a replica nearer). Miss and stale hints go at most once per variant per interval,
 * and carry the request's variant-selecting fields (only the allow-list, normalised; a response that
 * varies on any other field is not hinted at all), so the gateway fetches this variant. Protocol
 * code: runs on the cache's loop.
 */
public final class Hints {
    /** Most variants whose last hint is remembered; a forgotten one may be hinted again early, never lost. */
    public static final int MAX_REMEMBERED = 100_000;

    private final Env env;
    private final OverlayAccess overlay;
    private final PublicKey provider;
    private final Id managers;
    private final Id gateways;
    private final int ttl;
    private final Throttle<Id> perVariant;
    private long missHints;
    private long staleHints;
    private long latencyHints;
    private long seenHints;

    /** Hints for {@code provider}'s services over {@code overlay}, within {@code ttl} hops, once per variant per {@code interval}. */
    public Hints(Env env, OverlayAccess overlay, PublicKey provider, int ttl, Duration interval) {
        this.env = env;
        this.overlay = overlay;
        this.provider = provider;
        this.managers = ObjectNames.cacheManagerGuid(provider);
        this.gateways = ObjectNames.gatewayGuid(provider);
        this.ttl = ttl;
        this.perVariant = Throttle.oncePer(interval, MAX_REMEMBERED);
    }

    /** A read of {@code guid} for {@code url} answered slowly: a latency hint, which a manager counts as one request. */
    public void slowHit(String url, Id guid, int hops, long elapsedNanos) {
        latencyHints++;
        overlay.anycast(managers, new LatencyHint(url, guid, hops, elapsedNanos / 1000), ttl);
    }

    /**
     * The GUID under which the gateway stores the variant of {@code url} that {@code request} selects,
     * when {@code vary} (the response's Vary fields) is known; the base GUID when it is not. Empty
     * when no hint may name it: {@code Vary: *} (no shared cache stores it), or a field hints never
     * carry (an API key, User-Agent, ...), so no gateway could fetch this variant.
     */
    public Optional<Id> target(String url, Headers request, Optional<List<String>> vary) {
        if (vary.isEmpty()) {
            return Optional.of(ObjectNames.objectGuid(provider, url, ""));
        }
        if (!Variants.unforwarded(vary.get()).isEmpty()) {
            return Optional.empty();
        }
        return Variants.key(vary.get(), request).map(k ->
                ObjectNames.objectGuid(provider, url, k.equals(VariantKey.NONE) ? "" : k.toString()));
    }

    /**
     * A miss of {@code target} (see {@link #target}), or a stale copy of it at {@code staleVersion}
     * ({@code < 0}: a miss), unless this variant was hinted within the interval. A miss hint counts as
     * one request at the manager; a stale hint counts none. Returns whether a hint went.
     */
    public boolean missOrStale(Id target, String url, Headers request, Optional<List<String>> vary, long staleVersion) {
        if (!perVariant.admit(target, env.nowNanos())) {
            return false;
        }
        boolean stale = staleVersion >= 0;
        Headers selecting = Variants.selectingFields(request, vary);
        WireMessage toManager = stale ? new StaleHint(url, target, staleVersion, selecting) : new MissHint(url, target, selecting);
        if (stale) {
            staleHints++;
        } else {
            missHints++;
        }
        overlay.anycast(managers, toManager, gateways, new InsertRequest(0, url, selecting, stale), ttl);
        return true;
    }

    /**
     * The proxy fetched {@code target} (see {@link #target}) itself and keeps it privately: a seen hint
     * to the nearest manager, which inserts the variant if it hears of it again; where no manager
     * runs it is simply lost (no gateway fallback: nobody asked for an insert). Counts as one request
     * at the manager. The caller sends one per variant per sight window, so it is not throttled here,
     * nor does it hold back the miss hint of a second sighting soon after.
     */
    public void seen(Id target, String url, Headers request, Optional<List<String>> vary) {
        seenHints++;
        overlay.anycast(managers, new SeenHint(url, target, Variants.selectingFields(request, vary)), ttl);
    }

    /** Seen hints sent. */
    public long seenHints() {
        return seenHints;
    }

    /** Miss hints sent. */
    public long missHints() {
        return missHints;
    }

    /** Stale hints sent. */
    public long staleHints() {
        return staleHints;
    }

    /** Latency hints sent. */
    public long latencyHints() {
        return latencyHints;
    }
}
