package io.riptide.core.gateway;

import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.wire.Answer;
import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.Question;
import io.riptide.core.wire.WireException;
import io.riptide.core.wire.WireMessage;
import io.riptide.core.wire.WireReader;
import io.riptide.core.wire.WireWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * What other agents say to a provider's gateways (by anycast to its gateway service GUID) and what
 * the gateways answer: insert or refresh a URL, and the outcome.
 */
public final class GatewayMessages {
    /** First tag of these messages; agents' own messages start above {@link #LAST_TAG}. */
    public static final int FIRST_TAG = 1000;
    public static final int LAST_TAG = 1019;
    /** Longest URL accepted, in bytes. */
    public static final int MAX_URL_BYTES = 8192;
    /** Most header fields a request may carry. */
    public static final int MAX_FIELDS = 64;
    /** Longest header value, in bytes. */
    public static final int MAX_VALUE_BYTES = 8192;

    private GatewayMessages() {
    }

    /**
     * Please fetch {@code url} and insert (or refresh) it. {@code requestHeaders} are the request's
     * headers that may select a variant (Accept, Accept-Encoding, ...); never cookies or credentials.
     * {@code stale} says the requester found the cached copy stale, which counts toward installing a
     * monitor for the URL. {@code wantsCopy}: the requester is a proxy whose user waits for this very
     * fetch, so the reply should carry the signed copy ({@link InsertReply#copy()}) and spare it a read
     * of the copy just stored (new in wire version 5).
     */
    public record InsertRequest(long requestId, String url, Headers requestHeaders, boolean stale, boolean wantsCopy)
            implements Question {
        /** A request whose reply carries only the outcome (a manager's, a hint's). */
        public InsertRequest(long requestId, String url, Headers requestHeaders, boolean stale) {
            this(requestId, url, requestHeaders, stale, false);
        }

        @Override
        public InsertRequest withRequestId(long id) {
            return new InsertRequest(id, url, requestHeaders, stale, wantsCopy);
        }
    }

    /** What came of an insert. */
    public enum Outcome {
        /** A new version was signed and inserted. */
        INSERTED,
        /** The origin's content had not changed: the current version was confirmed by a heartbeat. */
        UNCHANGED,
        /** The origin's response may not be stored by a shared cache; nothing was inserted. */
        NOT_CACHEABLE,
        /** The origin could not be fetched (unreachable, timed out, malformed, too large, ...). */
        ORIGIN_FAILED,
        /** The request was refused: not a URL this gateway fetches (malformed, or an origin on a non-public address). */
        REJECTED,
        /** The gateway is too busy to take the request now. */
        OVERLOADED,
        /** No gateway answered: the requester's own verdict, never sent by a gateway. */
        UNREACHABLE
    }

    /**
     * The gateway's answer, sent directly to the requester. {@code version} is 0 when nothing is cached.
     * {@code copy} is the signed stored object ({@code CachedCopy} bytes) of {@code guid} when the
     * request asked for it and the gateway holds it, else empty; the requester verifies it like any
     * replica (new in wire version 5).
     */
    public record InsertReply(long requestId, String url, Id guid, long version, Outcome outcome, String reason, byte[] copy)
            implements Answer {
        private static final byte[] NONE = new byte[0];

        /**
         * Cuts a long reason (they quote URLs, which may be longer than any reason) to what a reader
         * accepts: a reply the reader refused would close the connection it came on.
         */
        public InsertReply {
            reason = reason == null ? "" : clip(reason, MAX_REASON_BYTES);
            copy = copy == null || copy.length == 0 ? NONE : copy;
        }

        /** Equal field by field, the copy by its bytes (a record compares arrays by identity). */
        @Override
        public boolean equals(Object o) {
            return o instanceof InsertReply r && requestId == r.requestId && url.equals(r.url) && java.util.Objects.equals(guid, r.guid)
                    && version == r.version && outcome == r.outcome && reason.equals(r.reason) && java.util.Arrays.equals(copy, r.copy);
        }

        @Override
        public int hashCode() {
            return java.util.Objects.hash(requestId, url, guid, version, outcome, reason) * 31 + java.util.Arrays.hashCode(copy);
        }

        @Override
        public String toString() {
            return "InsertReply[requestId=" + requestId + ", url=" + url + ", guid=" + guid + ", version=" + version + ", outcome="
                    + outcome + ", reason=" + reason + ", copy=" + copy.length + " bytes]";
        }

        /** A reply without a copy. */
        public InsertReply(long requestId, String url, Id guid, long version, Outcome outcome, String reason) {
            this(requestId, url, guid, version, outcome, reason, NONE);
        }
    }

    /**
     * The largest copy a reply carries: a body of the gateway's default largest object (8 MiB) with its
     * certificate and headers, well inside a frame (16 MiB). A larger one is left for the requester to read.
     */
    public static final int MAX_COPY_BYTES = 9 * 1024 * 1024;

    /** The most UTF-8 bytes of an {@link InsertReply}'s reason. */
    public static final int MAX_REASON_BYTES = 4096;

    /** {@code text} cut at a character boundary to at most {@code maxBytes} of UTF-8, ending in "…" if cut. */
    static String clip(String text, int maxBytes) {
        byte[] utf8 = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        if (utf8.length <= maxBytes) {
            return text;
        }
        String ellipsis = "\u2026";
        int budget = maxBytes - 3;
        int end = 0;
        int bytes = 0;
        while (end < text.length()) {
            int cp = text.codePointAt(end);
            int size = new String(Character.toChars(cp)).getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
            if (bytes + size > budget) {
                break;
            }
            bytes += size;
            end += Character.charCount(cp);
        }
        return text.substring(0, end) + ellipsis;
    }

    /**
     * One requester waiting for an insert: who, the ID it will recognise the reply by, and whether its
     * reply should carry the copy ({@link InsertRequest#wantsCopy()}).
     */
    public record Waiter(io.riptide.core.runtime.NodeHandle requester, long requestId, boolean wantsCopy) {
        /** A requester that wants the outcome only. */
        public Waiter(io.riptide.core.runtime.NodeHandle requester, long requestId) {
            this(requester, requestId, false);
        }
    }

    /**
     * From one gateway to the gateway holding the fetch lease for the same URL and request headers:
     * these requesters wait for your result, so the origin is fetched once.
     */
    public record InsertHandoff(String url, Headers requestHeaders, boolean stale, List<Waiter> waiters) implements WireMessage {
    }

    /**
     * A publisher's new version of a URL it owns, pushed to a gateway: the response to store, signed
     * with the publisher's Ed25519 key over {@code signedBytes} (see the gateway's push handling).
     */
    public record PublisherPush(long requestId, String url, int status, Headers headers, byte[] body, byte[] publisherKey,
                                long timestampMillis, byte[] signature) implements WireMessage {
    }

    /** Largest body a push may carry. */
    public static final int MAX_PUSH_BYTES = 8 * 1024 * 1024;

    /** Writes header fields. */
    public static void writeHeaders(WireWriter out, Headers headers) {
        out.list(headers.fields(), (w, f) -> w.string(f.name()).string(f.value()));
    }

    /** Reads header fields written by {@link #writeHeaders}, within the limits above. */
    public static Headers readHeaders(WireReader in) throws WireException {
        List<Headers.Field> fields = new ArrayList<>();
        for (Headers.Field f : in.list(MAX_FIELDS, r -> new Headers.Field(r.string(256), r.string(MAX_VALUE_BYTES)))) {
            fields.add(f);
        }
        return Headers.of(fields);
    }

    /** Registers these messages in {@code codec}. */
    public static void register(MessageCodec codec) {
        codec.register(FIRST_TAG + 2, InsertHandoff.class,
                (m, out) -> {
                    out.string(m.url());
                    writeHeaders(out, m.requestHeaders());
                    out.bool(m.stale()).list(m.waiters(), (w, x) -> w.handle(x.requester()).i64(x.requestId()).bool(x.wantsCopy()));
                },
                in -> new InsertHandoff(in.string(MAX_URL_BYTES), readHeaders(in), in.bool(),
                        in.list(4096, r -> new Waiter(r.handle(), r.i64(), r.bool()))));
        codec.register(FIRST_TAG + 3, PublisherPush.class,
                (m, out) -> {
                    out.i64(m.requestId()).string(m.url()).u16(m.status());
                    writeHeaders(out, m.headers());
                    out.bytes(m.body()).bytes(m.publisherKey()).i64(m.timestampMillis()).bytes(m.signature());
                },
                in -> new PublisherPush(in.i64(), in.string(MAX_URL_BYTES), in.u16(), readHeaders(in), in.bytes(MAX_PUSH_BYTES),
                        in.bytes(64), in.i64(), in.bytes(128)));
        codec.register(FIRST_TAG, InsertRequest.class,
                (m, out) -> {
                    out.i64(m.requestId()).string(m.url());
                    writeHeaders(out, m.requestHeaders());
                    out.bool(m.stale()).bool(m.wantsCopy());
                },
                in -> new InsertRequest(in.i64(), in.string(MAX_URL_BYTES), readHeaders(in), in.bool(), in.bool()));
        codec.register(FIRST_TAG + 1, InsertReply.class,
                (m, out) -> out.i64(m.requestId()).string(m.url()).id(m.guid()).i64(m.version()).u8(m.outcome().ordinal())
                        .string(m.reason()).bytes(m.copy()),
                in -> {
                    long id = in.i64();
                    String url = in.string(MAX_URL_BYTES);
                    Id guid = in.id();
                    long version = in.i64();
                    int outcome = in.u8();
                    if (outcome >= Outcome.values().length) {
                        throw new WireException("unknown insert outcome " + outcome);
                    }
                    return new InsertReply(id, url, guid, version, Outcome.values()[outcome], in.string(MAX_REASON_BYTES),
                            in.bytes(MAX_COPY_BYTES));
                });
    }
}
