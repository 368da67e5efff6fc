package io.riptide.cachemanager.insert;

import io.riptide.cachemanager.CacheManagerConfig;
import io.riptide.cachemanager.hints.OncePerWindow;
import io.riptide.core.hint.HintMessages.MissHint;
import io.riptide.core.hint.HintMessages.StaleHint;
import io.riptide.core.http.Headers;
import io.riptide.core.runtime.Env;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Turns miss and stale hints into gateway requests, one per URL per window: concurrent misses in a
 * stub cost one origin fetch, and a burst of stale reports one re-check. Re-checks keep coming for
 * an object that keeps going stale, and the gateway installs a monitor after a few of them, so its
 * updates are then pushed down the object's tree instead of pulled.
 */
public final class InsertTrigger {
    private final Env env;
    private final GatewayRequests gateway;
    private final OncePerWindow<String> misses;
    private final OncePerWindow<String> stale;

    public InsertTrigger(Env env, GatewayRequests gateway, CacheManagerConfig config) {
        this.env = env;
        this.gateway = gateway;
        this.misses = new OncePerWindow<>(config.missWindow(), config.maxTracked());
        this.stale = new OncePerWindow<>(config.staleWindow(), config.maxTracked());
    }

    /** A miss: one insert per URL and variant-selecting headers per window. */
    public void onMiss(MissHint hint) {
        if (misses.admit(variantOf(hint.url(), hint.requestHeaders()), env.nowNanos())) {
            gateway.insert(hint.url(), hint.requestHeaders(), false);
        }
    }

    /** A stale copy: one re-check per URL and variant-selecting headers per window. */
    public void onStale(StaleHint hint) {
        if (stale.admit(variantOf(hint.url(), hint.requestHeaders()), env.nowNanos())) {
            gateway.insert(hint.url(), hint.requestHeaders(), true);
        }
    }

    /**
     * The window's key: a gzip and an identity miss for one URL are different variants, each worth
     * its own insert, while the same variant's burst is still one. Field order and name case do not
     * tell variants apart, so they are folded away.
     */
    private static String variantOf(String url, Headers requestHeaders) {
        List<String> fields = new ArrayList<>();
        for (Headers.Field f : requestHeaders.fields()) {
            fields.add(f.name().toLowerCase(Locale.ROOT) + ":" + f.value().strip());
        }
        fields.sort(null);
        return url + "\n" + String.join("\n", fields);
    }
}
