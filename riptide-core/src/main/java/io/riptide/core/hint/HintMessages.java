package io.riptide.core.hint;

import io.riptide.core.gateway.GatewayMessages;
import io.riptide.core.id.Id;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireMessage;

/**
 * Hints browser proxies send to the nearest cache manager (by anycast to its service GUID): what
 * their users missed, found slow, or found stale. The cache managers turn them into replicas and
 * monitors; a hint nobody receives is simply lost.
 */
public final class HintMessages {
    public static final int FIRST_TAG = 1020;
    /** Most requests one load report may claim: bounds what one report can do to a manager's rates. */
    public static final int MAX_REPORTED_REQUESTS = 1_000_000;

    private HintMessages() {
    }

    /** A read of {@code guid} (for {@code url}) answered, but slowly: {@code hops} overlay hops and {@code latencyMicros}. */
    public record LatencyHint(String url, Id guid, int hops, long latencyMicros) implements WireMessage {
    }

    /** A read of {@code guid} (for {@code url}) found no replica: the proxy went to the origin. */
    public record MissHint(String url, Id guid) implements WireMessage {
    }

    /** A replica of {@code guid} (for {@code url}) was stale: the newest version the proxy found was {@code staleVersion}. */
    public record StaleHint(String url, Id guid, long staleVersion) implements WireMessage {
    }

    /**
     * A replica holder's (or proxy's) count of the requests for {@code guid} it served since its last
     * report: lets managers see load that produces no slow hits.
     */
    public record LoadReport(Id guid, int requests) implements WireMessage {
        public LoadReport {
            if (requests < 0 || requests > MAX_REPORTED_REQUESTS) {
                throw new IllegalArgumentException("requests out of range: " + requests);
            }
        }
    }

    /** Registers these messages in {@code codec} (tags 1020–1029). */
    public static void register(MessageCodec codec) {
        codec.register(FIRST_TAG, LatencyHint.class,
                (m, out) -> out.string(m.url()).id(m.guid()).u16(Math.max(0, Math.min(m.hops(), 0xffff))).i64(m.latencyMicros()),
                in -> new LatencyHint(in.string(GatewayMessages.MAX_URL_BYTES), in.id(), in.u16(), in.i64()));
        codec.register(FIRST_TAG + 1, MissHint.class,
                (m, out) -> out.string(m.url()).id(m.guid()),
                in -> new MissHint(in.string(GatewayMessages.MAX_URL_BYTES), in.id()));
        codec.register(FIRST_TAG + 2, StaleHint.class,
                (m, out) -> out.string(m.url()).id(m.guid()).i64(m.staleVersion()),
                in -> new StaleHint(in.string(GatewayMessages.MAX_URL_BYTES), in.id(), in.i64()));
        codec.register(FIRST_TAG + 3, LoadReport.class,
                (m, out) -> out.id(m.guid()).i32(m.requests()),
                in -> new LoadReport(in.id(), in.i32(0, MAX_REPORTED_REQUESTS, "reported requests")));
    }
}
