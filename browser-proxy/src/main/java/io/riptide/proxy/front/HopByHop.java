package io.riptide.proxy.front;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpVersion;
import java.util.List;

/**
 * Removes the fields that belong to one hop (RFC 9110 §7.6.1) and adds this proxy's {@code Via}.
 * {@code Content-Length} and {@code Transfer-Encoding} stay: they frame the message (by now the one
 * framing field {@link io.riptide.proxy.framing.Framing} let through), and the codecs on each side
 * re-frame it (a chunked body is re-chunked, not buffered).
 */
final class HopByHop {
    private static final List<CharSequence> ALWAYS = List.of(HttpHeaderNames.KEEP_ALIVE, "proxy-connection",
            HttpHeaderNames.PROXY_AUTHORIZATION, HttpHeaderNames.PROXY_AUTHENTICATE, "proxy-authentication-info",
            HttpHeaderNames.TE, HttpHeaderNames.TRAILER, HttpHeaderNames.UPGRADE);

    private HopByHop() {
    }

    /** Strips a request's hop-by-hop fields, and {@code Expect} (the proxy never asks the origin for 100 Continue). */
    static void stripRequest(HttpHeaders headers) {
        strip(headers);
        headers.remove(HttpHeaderNames.EXPECT);
    }

    /** Strips a response's hop-by-hop fields. */
    static void strip(HttpHeaders headers) {
        if (headers.contains(HttpHeaderNames.CONNECTION)) {
            stripListed(headers);
        }
        for (CharSequence name : ALWAYS) {
            headers.remove(name);
        }
    }

    /** Drops the fields that Connection names, and Connection itself. */
    private static void stripListed(HttpHeaders headers) {
        for (String value : headers.getAll(HttpHeaderNames.CONNECTION)) {
            for (String option : value.split(",")) {
                String name = option.trim();
                if (!name.isEmpty() && !isFraming(name)) {
                    headers.remove(name);
                }
            }
        }
        headers.remove(HttpHeaderNames.CONNECTION);
    }

    private static boolean isFraming(String name) {
        return HttpHeaderNames.CONTENT_LENGTH.contentEqualsIgnoreCase(name)
                || HttpHeaderNames.TRANSFER_ENCODING.contentEqualsIgnoreCase(name);
    }

    /** Appends {@code "1.1 <pseudonym>"} (the version the message arrived with) to {@code Via}. */
    static void addVia(HttpHeaders headers, HttpVersion received, String pseudonym) {
        String hop = received.majorVersion() + "." + received.minorVersion() + " " + pseudonym;
        String existing = headers.get(HttpHeaderNames.VIA);
        headers.set(HttpHeaderNames.VIA, existing == null || existing.isBlank() ? hop : existing + ", " + hop);
    }
}
