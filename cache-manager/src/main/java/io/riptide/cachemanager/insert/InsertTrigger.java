package io.riptide.cachemanager.insert;

import io.riptide.cachemanager.CacheManagerConfig;
import io.riptide.cachemanager.hints.OncePerWindow;
import io.riptide.core.hint.HintMessages.MissHint;
import io.riptide.core.hint.HintMessages.StaleHint;
import io.riptide.core.runtime.Env;

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

    public void onMiss(MissHint hint) {
        if (misses.admit(hint.url(), env.nowNanos())) {
            gateway.insert(hint.url(), false);
        }
    }

    public void onStale(StaleHint hint) {
        if (stale.admit(hint.url(), env.nowNanos())) {
            gateway.insert(hint.url(), true);
        }
    }
}
