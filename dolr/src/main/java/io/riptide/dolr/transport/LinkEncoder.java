package io.riptide.dolr.transport;

import io.netty.buffer.ByteBuf;
import io.riptide.core.wire.WireMessage;

/** Frames a message as a link of a given wire version carries it; the caller owns the frame. */
@FunctionalInterface
interface LinkEncoder {
    ByteBuf encode(WireMessage message, int version);
}
