package io.riptide.simulator.overlay;

import io.riptide.core.wire.WireMessage;

/** A routed test message: experiments route it to a key and note where, when and after how many hops it arrives. */
public record RouteProbe(long id) implements WireMessage {
}
