package io.riptide.cachemanager.insert;

import io.riptide.cachemanager.CacheManagerConfig;
import io.riptide.core.hint.HintMessages.MissHint;
import io.riptide.core.hint.HintMessages.SeenHint;
import io.riptide.core.hint.HintMessages.SightingAsk;
import io.riptide.core.hint.HintMessages.StaleHint;
import io.riptide.core.http.Headers;
import io.riptide.core.http.Variants;
import io.riptide.core.runtime.Env;
import io.riptide.core.throttle.Throttle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Turns miss and stale hints into gateway requests, one per URL and variant per window: concurrent
 * misses in a stub cost one origin fetch, and a burst of stale reports one re-check. Re-checks keep
 * coming for an object that keeps going stale, and the gateway installs a monitor after a few of them,
 * so its updates are then pushed down the object's tree instead of pulled.
 *
 * <p>Hints come from any overlay member, so only the allow-listed variant-selecting fields
 * ({@link Variants#SELECTING_FIELDS}, normalised) count as a variant and go on to the gateway, and one
 * URL gets at most {@link #MAX_VARIANTS_PER_URL} distinct variants fetched per window: varying
 * Accept-Language from hint to hint buys no more origin fetches than that.
 *
 * <p>A proxy that fetched a variant itself for the first time says so ({@link SeenHint}) and asks for
 * nothing; the second sighting within the sight window, from any proxy of the stub, is treated as a
 * miss: the URL is hot across proxies, and an insert now pays for its origin fetch.
 */
public final class InsertTrigger {
    /** The most distinct variants of one URL asked for per window (per kind: misses, re-checks). */
    public static final int MAX_VARIANTS_PER_URL = 8;

    private final Env env;
    private final GatewayRequests gateway;
    private final Throttle<String> misses;
    private final Throttle<String> stale;
    private final Throttle<String> missUrls;
    private final Throttle<String> staleUrls;
    private final Throttle<String> sightings;
    private long firstSightings;
    private long sentThroughGateway;

    public InsertTrigger(Env env, GatewayRequests gateway, CacheManagerConfig config) {
        this.env = env;
        this.gateway = gateway;
        this.misses = Throttle.oncePer(config.missWindow(), config.maxTracked());
        this.stale = Throttle.oncePer(config.staleWindow(), config.maxTracked());
        this.missUrls = Throttle.perWindow(config.missWindow(), MAX_VARIANTS_PER_URL, config.maxTracked());
        this.staleUrls = Throttle.perWindow(config.staleWindow(), MAX_VARIANTS_PER_URL, config.maxTracked());
        this.sightings = Throttle.oncePer(config.sightWindow(), config.maxTracked());
    }

    /** A miss: one insert per URL and variant per window, at most {@link #MAX_VARIANTS_PER_URL} variants. */
    public void onMiss(MissHint hint) {
        Headers selecting = Variants.selectingFields(hint.requestHeaders(), Optional.empty());
        if (admit(misses, missUrls, hint.url(), selecting)) {
            gateway.insert(hint.url(), selecting, false);
        }
    }

    /**
     * A proxy fetched a variant itself: the first sighting in the window is only remembered; a later
     * one within it is a miss ({@link #onMiss}'s limits apply). Returns whether this was a first sighting.
     */
    public boolean onSeen(SeenHint hint) {
        Headers selecting = Variants.selectingFields(hint.requestHeaders(), Optional.empty());
        if (sightings.admit(variantOf(hint.url(), selecting), env.nowNanos())) {
            firstSightings++;
            return true;
        }
        onMiss(new MissHint(hint.url(), hint.guid(), hint.requestHeaders()));
        return false;
    }

    /**
     * A proxy asks, before fetching a variant, whether the stub has seen it within the window: the
     * sighting is remembered either way, and nothing is inserted from here. On a later sighting the
     * proxy has the gateway fetch it for its request, which inserts it with that one origin fetch;
     * asking the gateway from here as well would cost the origin a second. Returns whether this was
     * the variant's first sighting.
     */
    public boolean onSightingAsk(SightingAsk ask) {
        Headers selecting = Variants.selectingFields(ask.requestHeaders(), Optional.empty());
        if (sightings.admit(variantOf(ask.url(), selecting), env.nowNanos())) {
            firstSightings++;
            return true;
        }
        sentThroughGateway++;
        return false;
    }

    /** Sightings a proxy was told to fetch through the gateway (each the variant's second or later in its window). */
    public long sentThroughGateway() {
        return sentThroughGateway;
    }

    /** Sightings that were a variant's first in its window (remembered, nothing inserted). */
    public long firstSightings() {
        return firstSightings;
    }

    /** A stale copy: one re-check per URL and variant per window, at most {@link #MAX_VARIANTS_PER_URL} variants. */
    public void onStale(StaleHint hint) {
        Headers selecting = Variants.selectingFields(hint.requestHeaders(), Optional.empty());
        if (admit(stale, staleUrls, hint.url(), selecting)) {
            gateway.insert(hint.url(), selecting, true);
        }
    }

    private boolean admit(Throttle<String> variants, Throttle<String> urls, String url, Headers selecting) {
        long now = env.nowNanos();
        String variant = variantOf(url, selecting);
        // A variant already asked for costs nothing from the URL's budget.
        if (variants.isOpen(variant, now) || !urls.admit(url, now)) {
            return false;
        }
        return variants.admit(variant, now);
    }

    /**
     * The window's key: a gzip and an identity miss for one URL are different variants, each worth
     * its own insert, while the same variant's burst is still one. {@code selecting} is already
     * normalised, and field order and name case are folded away.
     */
    private static String variantOf(String url, Headers selecting) {
        List<String> fields = new ArrayList<>();
        for (Headers.Field f : selecting.fields()) {
            fields.add(f.name().toLowerCase(Locale.ROOT) + ":" + f.value());
        }
        fields.sort(null);
        return url + "\n" + String.join("\n", fields);
    }
}
