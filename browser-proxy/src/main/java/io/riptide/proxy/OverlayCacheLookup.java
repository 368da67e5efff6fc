package io.riptide.proxy;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.http.Headers;
import io.riptide.core.object.PushMode;
import io.riptide.core.runtime.Env;
import io.riptide.core.stage.StageConfig;
import io.riptide.core.stage.StageMetrics;
import io.riptide.dolr.client.OverlayClient;
import io.riptide.proxy.cache.CacheFigures;
import io.riptide.proxy.cache.LookupResult;
import io.riptide.proxy.cache.MemoryCopies;
import io.riptide.proxy.cache.MemoryHits;
import io.riptide.proxy.cache.OverlayCacheConfig;
import io.riptide.proxy.cache.ProxyCache;
import io.riptide.proxy.cache.ProxyRequest;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The {@link ProxyCache} as the Netty front sees it: a fresh copy in the memory tier is answered on
 * the caller's thread ({@link MemoryHits}), with no hop; every other lookup hops onto the cache's loop
 * (the overlay client's), where the rest of the cache's state lives, and the answer comes back as a
 * future. This adapter and the runtime are all that is real-only about the proxy's cache.
 */
public final class OverlayCacheLookup implements CacheLookup, AutoCloseable {
    private final Env env;
    private final Supplier<List<StageMetrics>> stages;
    private final ProxyCache cache;
    private final Clock clock;
    /** The memory tier this lookup made and closes, or null. */
    private final MemoryCopies memory;
    private final MemoryHits memoryHits;

    /**
     * The stage an overlay client must be started with ({@link OverlayClient.Options#withStages}) for a
     * cache on its loop: {@code config.verifyQueue()} copies may wait, and up to one thread per core verifies.
     */
    public static StageConfig verifyStage(OverlayCacheConfig config) {
        return verifyStage(config, Runtime.getRuntime().availableProcessors());
    }

    /** {@link #verifyStage(OverlayCacheConfig)} on a host of {@code cores} cores (the simulator's hosts). */
    public static StageConfig verifyStage(OverlayCacheConfig config, int cores) {
        return StageConfig.of(ProxyCache.VERIFY_STAGE, config.verifyQueue(), 1, Math.max(1, cores));
    }

    /**
     * A {@link ProxyCache} on {@code client}'s loop (started with {@link #verifyStage}), trusting
     * {@code providers}, primary first, and dating by {@code clock}; its load reports and its reads of the
     * providers' key records ({@link ProxyCache#watchKeyRecords}) start at once.
     */
    public static OverlayCacheLookup start(OverlayClient client, List<PublicKey> providers, OverlayCacheConfig config, Clock clock) {
        MemoryCopies memory = config.memoryBytes() > 0 ? new MemoryCopies(config.memoryBytes()) : null;
        ProxyCache cache = new ProxyCache(client.env(), client.access(), providers, config, PushMode.NONE, memory);
        client.env().execute(() -> {
            cache.start();
            cache.watchKeyRecords(ProxyCache.KEY_RECORDS_EVERY);
        });
        return new OverlayCacheLookup(client.env(), cache, clock, memory, () -> List.copyOf(client.stages().metrics().values()));
    }

    /**
     * {@code cache} running on {@code env}'s loop, which dates by {@code clock}; {@code memory} (or null) is closed with
     * this; {@code stages} reads the figures of the stages it submits to (the verify stage).
     */
    public OverlayCacheLookup(Env env, ProxyCache cache, Clock clock, MemoryCopies memory, Supplier<List<StageMetrics>> stages) {
        this.env = env;
        this.stages = stages;
        this.cache = cache;
        this.clock = clock;
        this.memory = memory;
        this.memoryHits = cache.memoryHits();
    }

    @Override
    public CompletableFuture<LookupResult> lookup(ProxyRequest request) {
        if (memoryHits != null) {
            LookupResult kept = memoryHits.lookup(request);
            if (kept != null) {
                return CompletableFuture.completedFuture(kept);
            }
        }
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

    @Override
    public boolean mayKeep(ProxyRequest request, int status, Headers responseHeaders, long contentLength) {
        return cache.mayKeep(request, status, responseHeaders, contentLength);
    }

    @Override
    public long maxKeptBytes() {
        return memory == null ? 0 : cache.maxKeptBytes();
    }

    @Override
    public void keep(ProxyRequest request, int status, String reason, Headers responseHeaders, byte[] body,
                     long requestTimeMillis, long responseTimeMillis) {
        cache.keep(request, status, reason, responseHeaders, body, requestTimeMillis, responseTimeMillis);
    }

    @Override
    public void invalidate(String method, java.net.URI target, List<java.net.URI> related) {
        cache.invalidate(target, related);
    }

    /** Runs {@code read} on the cache's loop, for status pages and tests: figures are only consistent there. */
    public <T> CompletableFuture<T> inspect(java.util.function.Function<ProxyCache, T> read) {
        CompletableFuture<T> f = new CompletableFuture<>();
        env.execute(() -> f.complete(read.apply(cache)));
        return f;
    }

    @Override
    public List<StageMetrics> stages() {
        return stages.get();
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

    /** Releases the memory tier's buffers (bodies still being written keep theirs until sent). */
    @Override
    public void close() {
        if (memory != null) {
            memory.close();
        }
    }
}
