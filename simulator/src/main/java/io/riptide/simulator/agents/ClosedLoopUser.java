package io.riptide.simulator.agents;

import io.riptide.core.runtime.Env;
import java.time.Duration;
import java.util.function.Consumer;

/**
 * A user behind a proxy in a closed loop: request, wait for the response, think, request again,
 * until the end time. Every response completed by then is handed to the sink.
 */
public final class ClosedLoopUser {
    private final RequestPath proxy;
    private final String url;
    private final Duration think;
    private final long endNanos;
    private final Consumer<ClientResult> sink;

    /** A user of {@code proxy} requesting {@code url} until {@code endNanos} (the proxy's clock). */
    public ClosedLoopUser(RequestPath proxy, String url, Duration think, long endNanos, Consumer<ClientResult> sink) {
        this.proxy = proxy;
        this.url = url;
        this.think = think;
        this.endNanos = endNanos;
        this.sink = sink;
    }

    /** Starts the loop after {@code delay}. */
    public void start(Duration delay) {
        proxy.env().schedule(delay, this::request);
    }

    private void request() {
        Env env = proxy.env();
        proxy.get(url, result -> {
            if (env.nowNanos() > endNanos) {
                return;
            }
            sink.accept(result);
            if (env.nowNanos() + think.toNanos() < endNanos) {
                env.schedule(think, this::request);
            }
        });
    }
}
