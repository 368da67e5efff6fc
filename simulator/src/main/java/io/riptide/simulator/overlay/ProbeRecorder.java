package io.riptide.simulator.overlay;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.OverlayApplication;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;

/** The application every simulated node runs in the overlay experiments: it notes each route probe that reaches it. */
public final class ProbeRecorder {
    /** Where and when a probe arrived. */
    public record Arrival(int vertex, int hops, long atNanos) {
    }

    private final Map<Long, Arrival> arrivals = new HashMap<>();
    private final LongSupplier clock;

    public ProbeRecorder(LongSupplier clock) {
        this.clock = clock;
    }

    /** The application for the node at {@code vertex}. */
    public OverlayApplication applicationFor(int vertex) {
        return new OverlayApplication() {
            @Override
            public void deliver(Id key, WireMessage payload, NodeHandle origin, int hops) {
                if (payload instanceof RouteProbe probe) {
                    arrivals.putIfAbsent(probe.id(), new Arrival(vertex, hops, clock.getAsLong()));
                }
            }
        };
    }

    /** The arrival of probe {@code id}, or null if it never arrived. */
    public Arrival arrival(long id) {
        return arrivals.get(id);
    }
}
