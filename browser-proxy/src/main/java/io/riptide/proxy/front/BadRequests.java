package io.riptide.proxy.front;

import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.riptide.proxy.ProxyConfig;
import io.riptide.proxy.framing.Framing;
import java.time.Duration;

/** Maps what the request decoder could not parse, or the proxy refused to forward, to the status and words that say so. */
final class BadRequests {
    private BadRequests() {
    }

    static HttpResponseStatus status(Throwable cause) {
        if (cause instanceof TooLongHttpLineException) {
            return HttpResponseStatus.REQUEST_URI_TOO_LONG;
        }
        if (cause instanceof TooLongHttpHeaderException) {
            return HttpResponseStatus.REQUEST_HEADER_FIELDS_TOO_LARGE;
        }
        return HttpResponseStatus.BAD_REQUEST;
    }

    static String message(Throwable cause) {
        if (cause instanceof TooLongHttpLineException) {
            return "the request line is longer than this proxy accepts";
        }
        if (cause instanceof TooLongFrameException) {
            return "the request's header fields are larger than this proxy accepts";
        }
        return "the request is malformed: " + (cause == null || cause.getMessage() == null ? "unparseable" : cause.getMessage());
    }

    /**
     * 501 for a transfer coding the proxy does not implement (RFC 9112 §6.1, and what nginx and Apache
     * httpd answer), 400 for the other faults: two framings at once, a bad or repeated Content-Length,
     * Transfer-Encoding in HTTP/1.0 (RFC 9112 §6.3).
     */
    static HttpResponseStatus status(Framing.Faulty faulty) {
        return faulty.fault() == Framing.Fault.CODING ? HttpResponseStatus.NOT_IMPLEMENTED : HttpResponseStatus.BAD_REQUEST;
    }

    static String message(Framing.Faulty faulty) {
        return "the request's framing is refused: it has " + faulty.describe()
                + "; this proxy forwards a body framed by Transfer-Encoding: chunked alone or by one Content-Length";
    }

    /** What a client whose request head came too slowly reads. */
    static String lateHead(ProxyConfig config) {
        return "the request's head did not arrive within " + seconds(config.requestHeadTimeout())
                + " of its first bytes, the limit of this proxy (--request-head-timeout)";
    }

    private static String seconds(Duration d) {
        return d.toMillis() % 1000 == 0 ? d.toSeconds() + " s" : d.toMillis() + " ms";
    }
}
