package io.riptide.proxy.framing;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpVersion;
import java.util.List;

/**
 * How a message's body is delimited (RFC 9112 §6), judged from its framing fields as received
 * ({@link ReceivedHeaders}), or why the proxy will not forward it. Only two framings pass:
 * {@code Transfer-Encoding: chunked} alone, or one valid {@code Content-Length}; a message with
 * neither has no body (a request) or one that ends when the connection does (a response).
 * Everything else is {@link Faulty}: both fields at once, any coding but {@code chunked} alone,
 * a {@code Content-Length} that is not one plain decimal number, and {@code Transfer-Encoding} in an
 * HTTP/1.0 message (RFC 9112 §6.1: its framing is faulty). These are the ambiguities request
 * smuggling and response splitting live on: another parser could read the same bytes as a different
 * number of messages, so the proxy refuses them rather than choose one reading.
 */
public sealed interface Framing {
    /** {@code Transfer-Encoding: chunked} alone. */
    Framing CHUNKED = new Chunked();
    /** No framing field. */
    Framing UNFRAMED = new Unframed();

    /** The body is chunked. */
    record Chunked() implements Framing {
    }

    /** The body is {@code bytes} long. */
    record Length(long bytes) implements Framing {
    }

    /** Neither field: no body for a request; for a response, a body that ends when the connection closes. */
    record Unframed() implements Framing {
    }

    /** Framing the proxy will not forward: what is wrong, and the offending value (printable, shortened) or "". */
    record Faulty(Fault fault, String detail) implements Framing {
        /** One clause a person can read: "both Transfer-Encoding and Content-Length". */
        public String describe() {
            return switch (fault) {
                case BOTH -> "both Transfer-Encoding and Content-Length";
                case CODING -> "Transfer-Encoding: " + detail + ", a coding other than chunked alone";
                case LENGTH -> "an invalid Content-Length: " + detail;
                case SEVERAL_LENGTHS -> "several Content-Length values: " + detail;
                case CODING_IN_HTTP_1_0 -> "Transfer-Encoding in an HTTP/1.0 message";
            };
        }
    }

    /** What makes framing faulty. */
    enum Fault {
        /** Transfer-Encoding and Content-Length together. */
        BOTH,
        /** A Transfer-Encoding other than {@code chunked} alone. */
        CODING,
        /** A Content-Length that is not one plain decimal number. */
        LENGTH,
        /** Content-Length given more than once (several lines, or a list in one). */
        SEVERAL_LENGTHS,
        /** Transfer-Encoding in an HTTP/1.0 message. */
        CODING_IN_HTTP_1_0
    }

    /** Judges {@code message}'s framing, from its fields as received when it was decoded by {@link Codecs}. */
    static Framing of(HttpMessage message) {
        HttpHeaders h = message.headers();
        List<String> codings;
        List<String> lengths;
        if (h instanceof ReceivedHeaders r) {
            codings = r.transferEncodings();
            lengths = r.contentLengths();
        } else {
            // Not decoded by this proxy's codecs: judged by what is left, which is all there is.
            codings = h.getAll(HttpHeaderNames.TRANSFER_ENCODING);
            lengths = h.getAll(HttpHeaderNames.CONTENT_LENGTH);
        }
        if (!codings.isEmpty() && !lengths.isEmpty()) {
            return new Faulty(Fault.BOTH, "");
        }
        if (!codings.isEmpty()) {
            if (!HttpVersion.HTTP_1_1.equals(message.protocolVersion())) {
                return new Faulty(Fault.CODING_IN_HTTP_1_0, "");
            }
            // Exactly one field line whose whole value is the token chunked, in any case (RFC 9112 §7:
            // coding names are case-insensitive; the decoder already trimmed the optional whitespace
            // around it). Not "chunked, gzip" (chunked must be last), nor "gzip, chunked": the
            // proxy does not decode gzip transfer coding and would forward the body still gzipped
            // under its own chunked framing, so such a request is refused with 501 as nginx and
            // Apache httpd do. Nor "chunked" twice, "identity", "xchunked", a quoted or folded value:
            // each is a way to make two parsers disagree.
            if (codings.size() == 1 && HttpHeaderValues.CHUNKED.contentEqualsIgnoreCase(codings.get(0))) {
                return CHUNKED;
            }
            return new Faulty(Fault.CODING, printable(String.join(", ", codings)));
        }
        if (!lengths.isEmpty()) {
            String first = lengths.get(0);
            if (lengths.size() > 1 || first.indexOf(',') >= 0) {
                // RFC 9112 §6.3 lets a recipient merge identical values; refusing them all is simpler
                // and what Netty already does for HTTP/1.1.
                return new Faulty(Fault.SEVERAL_LENGTHS, printable(String.join(", ", lengths)));
            }
            if (!decimal(first)) {
                return new Faulty(Fault.LENGTH, printable(first));
            }
            return new Length(Long.parseLong(first));
        }
        return UNFRAMED;
    }

    /**
     * Rewrites {@code headers} to say {@code framing} (not {@link Faulty}) the proxy's way: chunked as the
     * token {@code chunked}, a length as plain digits, and never both fields. A bodiless response's
     * {@code chunked}, which the decoder took out, stays out.
     */
    static void normalize(HttpHeaders headers, Framing framing) {
        if (framing instanceof Chunked) {
            headers.remove(HttpHeaderNames.CONTENT_LENGTH);
            if (headers.contains(HttpHeaderNames.TRANSFER_ENCODING)) {
                headers.set(HttpHeaderNames.TRANSFER_ENCODING, HttpHeaderValues.CHUNKED);
            }
        } else if (framing instanceof Length l) {
            headers.remove(HttpHeaderNames.TRANSFER_ENCODING);
            headers.set(HttpHeaderNames.CONTENT_LENGTH, Long.toString(l.bytes()));
        } else if (framing instanceof Unframed) {
            headers.remove(HttpHeaderNames.TRANSFER_ENCODING);
            headers.remove(HttpHeaderNames.CONTENT_LENGTH);
        } else {
            throw new IllegalArgumentException("faulty framing is refused, not forwarded: " + ((Faulty) framing).describe());
        }
    }

    /** 1 to 18 digits, so it fits a long, and nothing else: no sign, no space, no 0x. */
    private static boolean decimal(String value) {
        if (value.isEmpty() || value.length() > 18) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            if (value.charAt(i) < '0' || value.charAt(i) > '9') {
                return false;
            }
        }
        return true;
    }

    /** {@code value} fit to quote in an error page: printable ASCII, at most 64 characters. */
    private static String printable(String value) {
        StringBuilder b = new StringBuilder(Math.min(value.length(), 64) + 2);
        for (int i = 0; i < value.length() && b.length() < 64; i++) {
            char c = value.charAt(i);
            b.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return "'" + b + (value.length() > 64 ? "...'" : "'");
    }
}
