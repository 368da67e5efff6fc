package io.riptide.core.hint;

import io.riptide.core.gateway.GatewayMessages;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.wire.Answer;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.Question;
import io.riptide.core.wire.WireMessage;
import java.util.Objects;

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

    /**
     * A read of {@code guid} (for {@code url}) found no replica: the proxy went to the origin.
     * {@code requestHeaders} are the request's variant-selecting fields (see
     * {@code Variants.selectingFields}), so the insert fetches the variant the browser asked for.
     */
    public record MissHint(String url, Id guid, Headers requestHeaders) implements WireMessage {
        public MissHint {
            Objects.requireNonNull(requestHeaders, "requestHeaders");
        }

        /** A miss of a response that does not vary: no request fields select it. */
        public MissHint(String url, Id guid) {
            this(url, guid, Headers.EMPTY);
        }
    }

    /**
     * A proxy missed {@code guid} (for {@code url}) and fetched it from the origin itself, for the first
     * time in its window: it keeps the response privately and asks for no insert. A manager that hears
     * of the same variant again within its window (from this proxy or another) has the gateway insert
     * it then, so a URL costs the origin a second fetch only once it has been asked for twice.
     * {@code requestHeaders} select the variant, as in {@link MissHint}.
     */
    public record SeenHint(String url, Id guid, Headers requestHeaders) implements WireMessage {
        public SeenHint {
            Objects.requireNonNull(requestHeaders, "requestHeaders");
        }
    }

    /**
     * A proxy missed {@code guid} (for {@code url}) and asks, before it fetches, whether its stub has
     * seen that variant within the sight window: the manager records the sighting and answers
     * ({@link SightingAnswer}). On a first sighting the proxy fetches it itself and keeps it privately;
     * on a later one it has the gateway fetch it for this request, which inserts it with the same one
     * origin fetch. {@code requestHeaders} select the variant, as in {@link MissHint}.
     */
    public record SightingAsk(long requestId, String url, Id guid, Headers requestHeaders) implements Question {
        public SightingAsk {
            Objects.requireNonNull(requestHeaders, "requestHeaders");
        }

        @Override
        public SightingAsk withRequestId(long id) {
            return new SightingAsk(id, url, guid, requestHeaders);
        }
    }

    /** A manager's answer to a {@link SightingAsk}: whether this was the variant's first sighting in its window. */
    public record SightingAnswer(long requestId, boolean first) implements Answer {
    }

    /**
     * A replica of {@code guid} (for {@code url}) was stale: the newest version the proxy found was
     * {@code staleVersion}. {@code requestHeaders} select the variant, as in {@link MissHint}.
     */
    public record StaleHint(String url, Id guid, long staleVersion, Headers requestHeaders) implements WireMessage {
        public StaleHint {
            Objects.requireNonNull(requestHeaders, "requestHeaders");
        }

        /** A stale copy of a response that does not vary. */
        public StaleHint(String url, Id guid, long staleVersion) {
            this(url, guid, staleVersion, Headers.EMPTY);
        }
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

    /**
     * Registers these messages in {@code codec} (tags 1020–1029). Tags 1021 and 1022 were the miss
     * and stale hints without request headers; they are retired, never to be reused, so a peer on
     * the old layout fails with "unknown message type" instead of misreading the new one.
     */
    public static void register(MessageCodec codec) {
        codec.register(FIRST_TAG, LatencyHint.class,
                (m, out) -> out.string(m.url()).id(m.guid()).u16(Math.max(0, Math.min(m.hops(), 0xffff))).i64(m.latencyMicros()),
                in -> new LatencyHint(in.string(GatewayMessages.MAX_URL_BYTES), in.id(), in.u16(), in.i64()));
        codec.register(FIRST_TAG + 4, MissHint.class,
                (m, out) -> GatewayMessages.writeHeaders(out.string(m.url()).id(m.guid()), m.requestHeaders()),
                in -> new MissHint(in.string(GatewayMessages.MAX_URL_BYTES), in.id(), GatewayMessages.readHeaders(in)));
        codec.register(FIRST_TAG + 5, StaleHint.class,
                (m, out) -> GatewayMessages.writeHeaders(out.string(m.url()).id(m.guid()).i64(m.staleVersion()), m.requestHeaders()),
                in -> new StaleHint(in.string(GatewayMessages.MAX_URL_BYTES), in.id(), in.i64(), GatewayMessages.readHeaders(in)));
        codec.register(FIRST_TAG + 6, SeenHint.class,
                (m, out) -> GatewayMessages.writeHeaders(out.string(m.url()).id(m.guid()), m.requestHeaders()),
                in -> new SeenHint(in.string(GatewayMessages.MAX_URL_BYTES), in.id(), GatewayMessages.readHeaders(in)));
        codec.register(FIRST_TAG + 7, SightingAsk.class,
                (m, out) -> GatewayMessages.writeHeaders(out.i64(m.requestId()).string(m.url()).id(m.guid()), m.requestHeaders()),
                in -> new SightingAsk(in.i64(), in.string(GatewayMessages.MAX_URL_BYTES), in.id(), GatewayMessages.readHeaders(in)));
        codec.register(FIRST_TAG + 8, SightingAnswer.class, (m, out) -> out.i64(m.requestId()).bool(m.first()),
                in -> new SightingAnswer(in.i64(), in.bool()));
        codec.register(FIRST_TAG + 3, LoadReport.class,
                (m, out) -> out.id(m.guid()).i32(m.requests()),
                in -> new LoadReport(in.id(), in.i32(0, MAX_REPORTED_REQUESTS, "reported requests")));
    }
}
