package io.riptide.core.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.riptide.core.gateway.GatewayMessages.InsertReply;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.id.Id;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** An insert reply always fits its reader: a reason quoting a long URL is cut, never sent whole to be refused. */
class InsertReplyTest {
    private final MessageCodec codec = new MessageCodec();

    InsertReplyTest() {
        GatewayMessages.register(codec);
    }

    @Test
    void aReasonLongerThanTheReaderAcceptsIsCutAtACharacterAndStillDecodes() throws WireException {
        // 8 KiB of URL, with three-byte characters so a cut could fall inside one.
        String url = "https://example.com/" + "ü€".repeat(1600);
        String reason = "origin failed: " + url + " answered 502";
        InsertReply reply = new InsertReply(7, "https://example.com/", Id.hash("x"), 0, Outcome.ORIGIN_FAILED, reason);
        int bytes = reply.reason().getBytes(StandardCharsets.UTF_8).length;
        assertTrue(bytes <= GatewayMessages.MAX_REASON_BYTES && bytes > GatewayMessages.MAX_REASON_BYTES - 8, "bytes " + bytes);
        assertTrue(reply.reason().endsWith("\u2026"));
        assertTrue(reason.startsWith(reply.reason().substring(0, reply.reason().length() - 1)), "a prefix of the reason");

        ByteBuf buf = Unpooled.buffer();
        try {
            codec.encodeBody(reply, buf);
            assertEquals(reply, codec.decodeBody(buf));
        } finally {
            buf.release();
        }
    }

    @Test
    void shortReasonsAreKeptAsTheyAre() {
        assertEquals("busy", new InsertReply(1, "u", Id.ZERO, 0, Outcome.OVERLOADED, "busy").reason());
        assertEquals("", new InsertReply(1, "u", Id.ZERO, 0, Outcome.OVERLOADED, null).reason());
    }
}
