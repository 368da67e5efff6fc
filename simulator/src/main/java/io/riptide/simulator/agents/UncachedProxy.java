package io.riptide.simulator.agents;

import io.riptide.core.runtime.Env;
import io.riptide.gateway.origin.OriginRequest;
import java.net.URI;
import java.util.function.Consumer;

/**
 * A proxy that caches nothing: every request is fetched from the origin and so crosses its link.
 * The paper's base configuration for Figs. 23–24 (section 6.8: "no caching is performed.
 * Consequently, all requests must be serviced by the origin web server").
 */
public final class UncachedProxy implements RequestPath {
    private final Env env;
    private final SimulatedOrigin origin;

    /** A proxy on the node of {@code env} fetching from {@code origin}. */
    public UncachedProxy(Env env, SimulatedOrigin origin) {
        this.env = env;
        this.origin = origin;
    }

    @Override
    public Env env() {
        return env;
    }

    @Override
    public void get(String url, Consumer<ClientResult> done) {
        long start = env.nowNanos();
        origin.fetch(env, OriginRequest.get(URI.create(url))).whenComplete((response, error) ->
                done.accept(new ClientResult(ClientResult.Source.ORIGIN_UNCACHED, null, 0, env.nowNanos() - start,
                        response == null ? -1 : response.body().length)));
    }
}
