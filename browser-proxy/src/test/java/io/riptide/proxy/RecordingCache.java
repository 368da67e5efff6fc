package io.riptide.proxy;

import io.riptide.core.http.Headers;
import io.riptide.proxy.cache.CacheStatus;
import io.riptide.proxy.cache.LookupResult;
import io.riptide.proxy.cache.ProxyRequest;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** A test cache that records every lookup and origin response and answers with a function of the request. */
final class RecordingCache implements CacheLookup {
    record OriginResponse(ProxyRequest request, LookupResult lookup, int status) {
    }

    final List<ProxyRequest> lookups = new CopyOnWriteArrayList<>();
    final List<OriginResponse> originResponses = new CopyOnWriteArrayList<>();
    private final Function<ProxyRequest, CompletableFuture<LookupResult>> answer;

    RecordingCache(Function<ProxyRequest, CompletableFuture<LookupResult>> answer) {
        this.answer = answer;
    }

    static RecordingCache missing() {
        return new RecordingCache(r -> CompletableFuture.completedFuture(LookupResult.forward(CacheStatus.forward("miss"))));
    }

    @Override
    public CompletableFuture<LookupResult> lookup(ProxyRequest request) {
        lookups.add(request);
        return answer.apply(request);
    }

    @Override
    public void onOriginResponse(ProxyRequest request, LookupResult lookup, int status, Headers responseHeaders) {
        originResponses.add(new OriginResponse(request, lookup, status));
    }
}
