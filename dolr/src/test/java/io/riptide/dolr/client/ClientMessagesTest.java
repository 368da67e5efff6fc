package io.riptide.dolr.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.riptide.core.gateway.GatewayMessages.InsertReply;
import io.riptide.core.gateway.GatewayMessages.InsertRequest;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireException;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.DolrCodec;
import io.riptide.dolr.client.ClientMessages.ClientAnswer;
import io.riptide.dolr.client.ClientMessages.ClientAsk;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A proxy's questions to its access node and their answers, on the wire: round trips, and what a reader refuses. */
class ClientMessagesTest {
    private final MessageCodec codec = DolrCodec.create();

    private WireMessage roundTrip(WireMessage m) throws WireException {
        ByteBuf buf = Unpooled.buffer();
        try {
            codec.encodeBody(m, buf);
            return codec.decodeBody(buf);
        } finally {
            buf.release();
        }
    }

    @Test
    void questionsAndAnswersRoundTrip() throws WireException {
        Id service = Id.hash("gateways");
        for (WireMessage m : List.of(
                new ClientAsk(5, service, 32, 10_000, new InsertRequest(0, "http://example.com/", Headers.of("Accept", "text/html"), false)),
                new ClientAnswer(5, new InsertReply(77, "http://example.com/", Id.hash("x"), 3, Outcome.INSERTED, "")),
                new ClientAnswer(6, null))) {
            assertEquals(m, roundTrip(m));
        }
    }

    @Test
    void anAskHoldingItsAccessNodeTooLongIsRefused() {
        // An access node holds a request until its deadline: a client may not ask it to wait past a minute.
        ByteBuf buf = Unpooled.buffer();
        try {
            codec.encodeBody(new ClientAsk(1, Id.hash("managers"), 8, ClientMessages.MAX_ASK_MILLIS + 1,
                    new InsertRequest(0, "http://example.com/", Headers.EMPTY, false)), buf);
            WireException e = assertThrows(WireException.class, () -> codec.decodeBody(buf));
            assertTrue(e.getMessage().contains("deadline"), e.getMessage());
        } finally {
            buf.release();
        }
    }
}
