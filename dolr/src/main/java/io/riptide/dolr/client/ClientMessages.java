package io.riptide.dolr.client;

import io.riptide.core.id.Id;
import io.riptide.core.wire.Answer;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.Question;
import io.riptide.core.wire.WireException;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.location.LocationMessages;
import io.riptide.dolr.location.LocationMessages.FailureReason;

/**
 * What an overlay client (a browser proxy, which does not route) asks of its access nodes, and
 * their answers: reads of objects, fire-and-forget anycasts (hints, load reports), and questions
 * whose one answer the access node relays (a gateway insert a proxy waits for).
 */
public final class ClientMessages {
    private ClientMessages() {
    }

    /** Read the nearest replica of {@code guid} within {@code ttl} hops, on my behalf. */
    public record ClientRead(long requestId, Id guid, int ttl) implements WireMessage {
    }

    /** The answer to a {@link ClientRead}: the replica's bytes, or why there are none ({@code failure} null when found). */
    public record ClientReadReply(long requestId, Id guid, FailureReason failure, int hops, byte[] data) implements WireMessage {
        public boolean found() {
            return failure == null;
        }
    }

    /**
     * Anycast {@code payload} to the nearest provider of {@code service} on my behalf; if there is none,
     * anycast {@code fallbackPayload} to {@code fallbackService} instead (when given). No answer is
     * expected.
     */
    public record ClientAnycast(Id service, int ttl, WireMessage payload, Id fallbackService, WireMessage fallbackPayload)
            implements WireMessage {
        /** An anycast without a fallback. */
        public ClientAnycast(Id service, int ttl, WireMessage payload) {
            this(service, ttl, payload, null, null);
        }

        public boolean hasFallback() {
            return fallbackService != null && fallbackPayload != null;
        }
    }

    /**
     * Ask {@code question} of the nearest provider of {@code service} on my behalf and send me its
     * answer ({@link ClientAnswer}, under my {@code requestId}) within {@code deadlineMillis}.
     */
    public record ClientAsk(long requestId, Id service, int ttl, long deadlineMillis, Question question) implements WireMessage {
    }

    /** The answer to a client's {@link ClientAsk}; {@code answer} null when none came. */
    public record ClientAnswer(long requestId, Answer answer) implements WireMessage {
    }

    /** The longest a client may have an access node wait for an answer on its behalf. */
    public static final long MAX_ASK_MILLIS = 60_000;

    /** Registers these messages in {@code codec} (tags 80–89). */
    public static void register(MessageCodec codec) {
        codec.register(80, ClientRead.class, (m, out) -> out.i64(m.requestId()).id(m.guid()).u16(m.ttl()),
                in -> new ClientRead(in.i64(), in.id(), in.u16()));
        codec.register(81, ClientReadReply.class,
                (m, out) -> out.i64(m.requestId()).id(m.guid()).u8(m.failure() == null ? 0 : m.failure().ordinal() + 1)
                        .u16(Math.max(0, m.hops())).bytes(m.data()),
                in -> {
                    long id = in.i64();
                    Id guid = in.id();
                    int f = in.u8();
                    if (f > FailureReason.values().length) {
                        throw new WireException("unknown failure " + f);
                    }
                    return new ClientReadReply(id, guid, f == 0 ? null : FailureReason.values()[f - 1], in.u16(),
                            in.bytes(LocationMessages.MAX_READ_BYTES));
                });
        codec.register(82, ClientAnycast.class, (m, out) -> {
            out.id(m.service()).u16(m.ttl()).message(codec, m.payload()).bool(m.hasFallback());
            if (m.hasFallback()) {
                out.id(m.fallbackService()).message(codec, m.fallbackPayload());
            }
        }, in -> {
            Id service = in.id();
            int ttl = in.u16();
            WireMessage payload = in.message(codec);
            return in.bool() ? new ClientAnycast(service, ttl, payload, in.id(), in.message(codec)) : new ClientAnycast(service, ttl, payload);
        });
        codec.register(83, ClientAsk.class,
                (m, out) -> out.i64(m.requestId()).id(m.service()).u16(m.ttl()).i64(m.deadlineMillis()).message(codec, m.question()),
                in -> {
                    long id = in.i64();
                    Id service = in.id();
                    int ttl = in.u16();
                    long deadline = in.i64();
                    if (deadline < 0 || deadline > MAX_ASK_MILLIS) {
                        throw new WireException("ask deadline " + deadline + " ms outside 0.." + MAX_ASK_MILLIS);
                    }
                    if (!(in.message(codec) instanceof Question q)) {
                        throw new WireException("a client's ask must carry a question");
                    }
                    return new ClientAsk(id, service, ttl, deadline, q);
                });
        codec.register(84, ClientAnswer.class, (m, out) -> {
            out.i64(m.requestId()).bool(m.answer() != null);
            if (m.answer() != null) {
                out.message(codec, m.answer());
            }
        }, in -> {
            long id = in.i64();
            if (!in.bool()) {
                return new ClientAnswer(id, null);
            }
            if (!(in.message(codec) instanceof Answer a)) {
                throw new WireException("a client's answer must carry an answer");
            }
            return new ClientAnswer(id, a);
        });
    }
}
