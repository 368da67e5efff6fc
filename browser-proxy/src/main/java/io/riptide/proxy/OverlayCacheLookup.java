package io.riptide.proxy;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.http.Headers;
import io.riptide.core.object.PushMode;
import io.riptide.core.runtime.Env;
import io.riptide.core.stage.StageConfig;
import io.riptide.dolr.client.OverlayClient;
import io.riptide.proxy.cache.CacheFigures;
import io.riptide.proxy.cache.LookupResult;
import io.riptide.proxy.cache.OverlayCacheConfig;
import io.riptide.proxy.cache.ProxyCache;
import io.riptide.proxy.cache.ProxyRequest;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The {@link ProxyCache} as the Netty front sees it: each call hops onto the cache's loop (the
 * overlay client's), where all of the cache's state lives, and the answer comes back as a future.
 * This adapter and the runtime are all that is real-only about the proxy's cache.
 */
public final class OverlayCacheLookup implements CacheLookup {
    private final Env env;
    private final ProxyCache cache;
    private final Clock clock;

    /**
     * The stage an overlay client must be started with ({@link OverlayClient.Options#withStages}) for a
     * cache on its loop: {@code config.verifyQueue()} copies may wait, and up to one thread per core verifies.
     */
    public static StageConfig verifyStage(OverlayCacheConfig config) {
        return StageConfig.of(ProxyCache.VERIFY_STAGE, config.verifyQueue(), 1, Math.max(1, Runtime.getRuntime().availableProcessors()));
    }

    /**
     * A {@link ProxyCache} on {@code client}'s loop (started with {@link #verifyStage}), trusting
     * {@code providers}, primary first, and dating by {@code clock}; its load reports start at once.
     */
    public static OverlayCacheLookup start(OverlayClient client, List<PublicKey> providers, OverlayCacheConfig config, Clock clock) {
        ProxyCache cache = new ProxyCache(client.env(), client.access(), providers, config, PushMode.NONE);
        client.env().execute(cache::start);
        return new OverlayCacheLookup(client.env(), cache, clock);
    }

    /** {@code cache} running on {@code env}'s loop, which dates by {@code clock}. */
    public OverlayCacheLookup(Env env, ProxyCache cache, Clock clock) {
        this.env = env;
        this.cache = cache;
        this.clock = clock;
    }

    @Override
    public CompletableFuture<LookupResult> lookup(ProxyRequest request) {
        CompletableFuture<LookupResult> f = new CompletableFuture<>();
        env.execute(() -> {
            try {
                cache.lookup(request, f::complete);
            } catch (RuntimeException e) {
                f.completeExceptionally(e);
            }
        });
        return f;
    }

    @Override
    public void onOriginResponse(ProxyRequest request, LookupResult lookup, int status, Headers responseHeaders) {
        env.execute(() -> cache.onOriginResponse(request, lookup, status, responseHeaders));
    }

    /** Runs {@code read} on the cache's loop, for status pages and tests: figures are only consistent there. */
    public <T> CompletableFuture<T> inspect(java.util.function.Function<ProxyCache, T> read) {
        CompletableFuture<T> f = new CompletableFuture<>();
        env.execute(() -> f.complete(read.apply(cache)));
        return f;
    }

    @Override
    public Optional<CacheFigures> figures() {
        try {
            return Optional.of(inspect(ProxyCache::figures).get(1, TimeUnit.SECONDS));
        } catch (Exception e) {
            return Optional.empty(); // the loop is busy or gone: the page shows what it can
        }
    }

    @Override
    public Clock clock() {
        return clock;
    }
}
