package io.riptide.core.hint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.riptide.core.hint.HintMessages.LatencyHint;
import io.riptide.core.hint.HintMessages.LoadReport;
import io.riptide.core.hint.HintMessages.MissHint;
import io.riptide.core.hint.HintMessages.SeenHint;
import io.riptide.core.hint.HintMessages.SightingAnswer;
import io.riptide.core.hint.HintMessages.SightingAsk;
import io.riptide.core.hint.HintMessages.StaleHint;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireException;
import io.riptide.core.wire.WireMessage;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every hint survives the wire, and the latency hint keeps its tag. */
class HintMessagesTest {
    private final MessageCodec codec = new MessageCodec();

    HintMessagesTest() {
        HintMessages.register(codec);
    }

    @Test
    void hintsRoundTrip() throws WireException {
        Id guid = Id.hash("http://example.com/a");
        for (WireMessage m : List.of(new LatencyHint("http://example.com/a", guid, 4, 1200),
                new MissHint("http://example.com/a", guid), new StaleHint("http://example.com/a", guid, 7),
                new MissHint("http://example.com/a", guid, Headers.of("Accept-Encoding", "gzip, br")),
                new StaleHint("http://example.com/a", guid, 7, Headers.of("Accept-Language", "fr", "Accept", "text/css")),
                new SeenHint("http://example.com/a", guid, Headers.of("Accept-Encoding", "gzip")),
                new SightingAsk(9, "http://example.com/a", guid, Headers.of("Accept-Language", "fr")),
                new SightingAnswer(9, true), new SightingAnswer(10, false),
                new LoadReport(guid, 42))) {
            ByteBuf buf = Unpooled.buffer();
            try {
                codec.encodeBody(m, buf);
                assertEquals(m, codec.decodeBody(buf));
            } finally {
                buf.release();
            }
        }
    }

    @Test
    void latencyHintKeepsItsTag() {
        ByteBuf buf = Unpooled.buffer();
        try {
            codec.encodeBody(new LatencyHint("u", Id.ZERO, 1, 1), buf);
            assertEquals(HintMessages.FIRST_TAG, buf.getUnsignedShort(0));
        } finally {
            buf.release();
        }
    }

    /** The header-less layouts' tags are retired: an old peer's hint is refused, not misread. */
    @Test
    void retiredHintTagsAreNotReused() {
        for (int retired : new int[] {HintMessages.FIRST_TAG + 1, HintMessages.FIRST_TAG + 2}) {
            ByteBuf buf = Unpooled.buffer();
            try {
                buf.writeShort(retired);
                new io.riptide.core.wire.WireWriter(buf).string("http://example.com/a").id(Id.ZERO);
                assertThrows(WireException.class, () -> codec.decodeBody(buf));
            } finally {
                buf.release();
            }
        }
    }

    @Test
    void loadReportsAreBounded() {
        assertThrows(IllegalArgumentException.class, () -> new LoadReport(Id.ZERO, -1));
        assertThrows(IllegalArgumentException.class, () -> new LoadReport(Id.ZERO, HintMessages.MAX_REPORTED_REQUESTS + 1));
    }
}
