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
    void aCopyAndTheRequestForItCrossTheWireByteForByte() throws WireException {
        byte[] copy = new byte[70_000];
        new java.util.Random(5).nextBytes(copy);
        InsertReply reply = new InsertReply(9, "http://a.example/", Id.hash("a"), 3, Outcome.INSERTED, "version 3 inserted", copy);
        GatewayMessages.InsertRequest request = new GatewayMessages.InsertRequest(4, "http://a.example/",
                io.riptide.core.http.Headers.EMPTY, false, true);
        ByteBuf buf = Unpooled.buffer();
        try {
            codec.encodeBody(reply, buf);
            InsertReply back = (InsertReply) codec.decodeBody(buf);
            assertEquals(reply, back);
            assertTrue(java.util.Arrays.equals(copy, back.copy()));
            buf.clear();
            codec.encodeBody(request, buf);
            assertEquals(request, codec.decodeBody(buf));
            assertTrue(((GatewayMessages.InsertRequest) request.withRequestId(8)).wantsCopy(), "renumbering keeps the wish");
        } finally {
            buf.release();
        }
    }

    @Test
    void aCopyLargerThanAReplyMayCarryIsRefusedByTheReader() {
        InsertReply reply = new InsertReply(9, "u", Id.ZERO, 1, Outcome.INSERTED, "", new byte[GatewayMessages.MAX_COPY_BYTES + 1]);
        ByteBuf buf = Unpooled.buffer();
        try {
            codec.encodeBody(reply, buf);
            org.junit.jupiter.api.Assertions.assertThrows(WireException.class, () -> codec.decodeBody(buf));
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
