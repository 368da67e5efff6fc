package io.riptide.simulator.agents;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.riptide.core.crypto.PublicKey;
import io.riptide.core.http.Headers;
import io.riptide.core.object.PushMode;
import io.riptide.core.runtime.Env;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.client.NodeAccess;
import io.riptide.gateway.origin.OriginRequest;
import io.riptide.gateway.origin.OriginResponse;
import io.riptide.proxy.cache.CacheStatus;
import io.riptide.proxy.cache.Cacheability;
import io.riptide.proxy.cache.LookupResult;
import io.riptide.proxy.cache.MemoryCopies;
import io.riptide.proxy.cache.MemoryHits;
import io.riptide.proxy.cache.OverlayCacheConfig;
import io.riptide.proxy.cache.ProxyCache;
import io.riptide.proxy.cache.ProxyRequest;
import io.riptide.proxy.revalidation.Revalidation;
import io.riptide.simulator.stages.HostStages;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;

/**
 * A browser proxy on an overlay node's host, as a simulation runs it: the shipped {@link ProxyCache}
 * (lookup, verification, RFC 9111, hints, load reports), reading through the node itself
 * ({@link NodeAccess}) on the node's simulated runtime. Around it, what the real proxy's Netty front
 * does, on whole responses from the {@link SimulatedOrigin}: the bypass rules ({@link Cacheability}),
 * serving an answer, revalidating a copy ({@link Revalidation}) and telling the cache how the origin
 * answered. Users see the outcome as a {@link ClientResult}.
 */
public final class SimulatedProxy implements RequestPath {
    private final OverlayNode node;
    private final Env env;
    private final ProxyCache cache;
    private final SimulatedOrigin origin;
    /** The memory tier (verified copies and the proxy's own fetches), or null. */
    private final MemoryCopies memory;
    private long originFetches;
    /** Who sees the bytes of every answer, or null (then no body is copied). */
    private Consumer<ServedBody> servedTo;

    SimulatedProxy(OverlayNode node, List<PublicKey> providers, SimulatedOrigin origin, PushMode pushMode, OverlayCacheConfig config,
                   boolean useBloom, long memoryBytes) {
        this.node = node;
        this.env = node.env();
        this.origin = origin;
        // On the heap: a simulation holds many proxies' tiers, and the bodies are only counted, never sent.
        this.memory = memoryBytes > 0 ? new MemoryCopies(memoryBytes, new UnpooledByteBufAllocator(false)) : null;
        this.cache = new ProxyCache(env, new LoopAccess(env, new NodeAccess(node, useBloom)), providers, config, pushMode, memory);
        cache.start();
    }

    @Override
    public void get(String url, Consumer<ClientResult> done) {
        long start = env.nowNanos();
        // The front's share of the request (parsing it, answering it) costs one of the host's cores
        // first; the front's loops never refuse a request they have read, so neither does this stage.
        if (!env.submit(HostStages.FRONT_STAGE, () -> null, (v, e) -> handle(url, start, done))) {
            handle(url, start, done);
        }
    }

    /** Shows {@code watcher} the bytes of every answer this proxy gives from now on, as the user gets them. */
    public void onServed(Consumer<ServedBody> watcher) {
        this.servedTo = watcher;
    }

    private void handle(String url, long start, Consumer<ClientResult> done) {
        ProxyRequest request = ProxyRequest.get(url, Headers.EMPTY);
        CacheStatus bypass = Cacheability.DEFAULTS.bypass(request);
        if (bypass != null) {
            fetch(request, Headers.EMPTY, response -> done.accept(fromOrigin(ClientResult.Source.ORIGIN_BYPASS, null, start, response,
                    url)));
            return;
        }
        LookupResult kept = cache.memoryHits() == null ? null : cache.memoryHits().lookup(request);
        if (kept != null) {
            // As the real front does: a fresh copy in memory is answered at once, with no overlay read.
            boolean own = kept.status().equals(MemoryHits.PRIVATE_HIT);
            if (servedTo != null) {
                io.netty.buffer.ByteBuf body = kept.answer().body();
                byte[] bytes = new byte[body.readableBytes()];
                body.getBytes(body.readerIndex(), bytes);
                servedTo.accept(new ServedBody(url, own ? ClientResult.Source.PROXY_PRIVATE : ClientResult.Source.PROXY_MEMORY,
                        bytes, own || kept.found() == null ? -1 : kept.found().version()));
            }
            done.accept(new ClientResult(own ? ClientResult.Source.PROXY_PRIVATE : ClientResult.Source.PROXY_MEMORY, null, 0,
                    env.nowNanos() - start, kept.answer().body().readableBytes()));
            kept.release();
            return;
        }
        cache.lookup(request, result -> {
            switch (result.kind()) {
                case SERVE -> {
                    io.netty.buffer.ByteBuf body = result.answer().body();
                    byte[] bytes = null;
                    if (servedTo != null) {
                        bytes = new byte[body.readableBytes()];
                        body.getBytes(body.readerIndex(), bytes);
                    }
                    done.accept(served(result, body.readableBytes(), bytes, start, url));
                    result.release();
                }
                case VALIDATE -> revalidate(request, result, start, done);
                case FORWARD -> fetch(request, Headers.EMPTY, response -> {
                    keep(request, response);
                    cache.onOriginResponse(request, result, status(response), headers(response));
                    done.accept(fromOrigin(ClientResult.Source.ORIGIN_MISS, result, start, response, url));
                });
            }
        });
    }

    /** The origin's whole response, kept in the private tier if the cache keeps it (as the front does as it streams it). */
    private void keep(ProxyRequest request, OriginResponse response) {
        if (response != null && memory != null) {
            cache.keep(request, response.status(), response.reason(), response.headers(), response.body(),
                    response.requestTimeMillis(), response.responseTimeMillis());
        }
    }

    /** A copy to validate: the origin is asked with {@link Revalidation}'s conditions, and its answer judged as the front judges it. */
    private void revalidate(ProxyRequest request, LookupResult result, long start, Consumer<ClientResult> done) {
        Revalidation revalidation = Revalidation.of(result.stored(), request.headers());
        Headers conditional = request.headers();
        for (var c : revalidation.conditions().entrySet()) {
            conditional = conditional.without(c.getKey()).with(c.getKey(), c.getValue());
        }
        fetch(request, conditional, response -> {
            Revalidation.Verdict verdict = revalidation.judge(status(response), headers(response),
                    Instant.ofEpochMilli(env.wallClockMillis()), true);
            switch (verdict) {
                case NOT_MODIFIED -> {
                    cache.onOriginResponse(request, result, 304, revalidation.freshened());
                    if (memory != null) {
                        cache.keep(request, result.stored().status(), result.stored().reason(), revalidation.freshened(),
                                result.stored().body(), response.requestTimeMillis(), response.responseTimeMillis());
                    }
                    done.accept(served(result, result.stored().body().length, result.stored().body(), start, request.url().toString()));
                }
                case ERROR -> {
                    if (result.stored().staleIfError()) {
                        done.accept(served(result, result.stored().body().length, result.stored().body(), start, request.url().toString())); // stale-if-error
                    } else {
                        done.accept(fromOrigin(ClientResult.Source.ORIGIN_STALE, result, start, null, request.url().toString())); // a 502
                    }
                }
                case ASK_AGAIN -> {
                    Headers unconditional = request.headers();
                    for (String field : revalidation.askAgain()) {
                        unconditional = unconditional.without(field);
                    }
                    fetch(request, unconditional, again -> {
                        keep(request, again);
                        cache.onOriginResponse(request, result, status(again), headers(again));
                        done.accept(fromOrigin(ClientResult.Source.ORIGIN_STALE, result, start, again, request.url().toString()));
                    });
                }
                case PASS -> {
                    keep(request, response);
                    cache.onOriginResponse(request, result, status(response), headers(response));
                    done.accept(fromOrigin(ClientResult.Source.ORIGIN_STALE, result, start, response, request.url().toString()));
                }
            }
        });
    }

    private void fetch(ProxyRequest request, Headers headers, Consumer<OriginResponse> done) {
        originFetches++;
        origin.fetch(env, OriginRequest.get(request.url(), headers)).whenComplete((response, error) -> done.accept(response));
    }

    private ClientResult served(LookupResult result, int bodyBytes, byte[] body, long start, String url) {
        LookupResult.Found found = result.found();
        // A copy served with a forward status went through the gateway's fetch for this request, not a cache hit.
        ClientResult.Source source = result.status().hit() || result.kind() == LookupResult.Kind.VALIDATE
                ? ClientResult.Source.REPLICA : ClientResult.Source.GATEWAY_MISS;
        if (servedTo != null) {
            servedTo.accept(new ServedBody(url, source, body, found == null ? -1 : found.version()));
        }
        return new ClientResult(source, found == null ? null : found.replica(), found == null ? 0 : found.hops(),
                env.nowNanos() - start, bodyBytes);
    }

    private ClientResult fromOrigin(ClientResult.Source source, LookupResult lookup, long start, OriginResponse response, String url) {
        LookupResult.Found found = lookup == null ? null : lookup.found();
        if (servedTo != null) {
            servedTo.accept(new ServedBody(url, source, response == null ? null : response.body(), -1));
        }
        return new ClientResult(source, found == null ? null : found.replica(), found == null ? 0 : found.hops(),
                env.nowNanos() - start, response == null ? -1 : response.body().length);
    }

    private static int status(OriginResponse response) {
        return response == null ? 502 : response.status();
    }

    private static Headers headers(OriginResponse response) {
        return response == null ? Headers.EMPTY : response.headers();
    }

    /** The proxy's cache, for what it counted (hits, refusals, hints, load reports). */
    public ProxyCache cache() {
        return cache;
    }

    /** Bytes its memory tier holds now (bodies and bookkeeping); 0 without one. */
    public long memoryBytes() {
        return memory == null ? 0 : memory.figures().bytes();
    }

    /** Requests this proxy sent to the origin itself (misses, revalidations, bypasses). */
    public long originFetches() {
        return originFetches;
    }

    /** The node whose host the proxy runs on. */
    public OverlayNode node() {
        return node;
    }

    /** Stops the proxy's periodic load reports: a simulated proxy that has served its users. */
    public void stop() {
        cache.stop();
        if (memory != null) {
            memory.close();
        }
    }

    @Override
    public Env env() {
        return env;
    }
}
