package io.riptide.proxy.framing;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * A message's header fields that also remember each {@code Content-Length} and {@code Transfer-Encoding}
 * field line as it arrived. Netty's decoder silently drops {@code Content-Length} when a message is
 * also chunked (HTTP/1.1), and keeps only the first of several differing ones (HTTP/1.0), so the
 * fields left afterwards cannot show that a message was ambiguous; these lines can. Validated as
 * Netty's default headers are.
 */
public final class ReceivedHeaders extends DefaultHttpHeaders {
    private static final DefaultHttpHeadersFactory VALIDATING = DefaultHttpHeadersFactory.headersFactory();

    /** Makes these for every message a decoder reads. */
    static final HttpHeadersFactory FACTORY = new HttpHeadersFactory() {
        @Override
        public HttpHeaders newHeaders() {
            return new ReceivedHeaders();
        }

        @Override
        public HttpHeaders newEmptyHeaders() {
            return new ReceivedHeaders();
        }
    };

    // Most messages carry at most one framing field: no lists until one arrives.
    private List<String> contentLengths = List.of();
    private List<String> transferEncodings = List.of();

    private ReceivedHeaders() {
        super(VALIDATING.getNameValidator(), VALIDATING.getValueValidator());
    }

    @Override
    public HttpHeaders add(CharSequence name, Object value) {
        note(name, value);
        return super.add(name, value);
    }

    @Override
    public HttpHeaders add(String name, Object value) {
        note(name, value);
        return super.add(name, value);
    }

    /** Each {@code Content-Length} line's value, in order, as received (and as added since). */
    public List<String> contentLengths() {
        return contentLengths;
    }

    /** Each {@code Transfer-Encoding} line's value, in order, as received (and as added since). */
    public List<String> transferEncodings() {
        return transferEncodings;
    }

    private void note(CharSequence name, Object value) {
        if (HttpHeaderNames.CONTENT_LENGTH.contentEqualsIgnoreCase(name)) {
            contentLengths = appended(contentLengths, value);
        } else if (HttpHeaderNames.TRANSFER_ENCODING.contentEqualsIgnoreCase(name)) {
            transferEncodings = appended(transferEncodings, value);
        }
    }

    private static List<String> appended(List<String> list, Object value) {
        List<String> more = list.isEmpty() ? new ArrayList<>(1) : list;
        more.add(String.valueOf(value));
        return more;
    }
}
