package io.riptide.proxy.front;

import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;

/** Maps what the request decoder could not parse to the status that says so. */
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
}
