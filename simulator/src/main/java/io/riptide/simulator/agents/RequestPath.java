package io.riptide.simulator.agents;

import io.riptide.core.runtime.Env;
import java.util.function.Consumer;

/** What a simulated user sends its requests through: a proxy on an access node. */
public interface RequestPath {
    /** The runtime of the node the proxy runs on (its clock and timers). */
    Env env();

    /** Requests canonical URL {@code url}; {@code done} hears how it was answered. */
    void get(String url, Consumer<ClientResult> done);
}
