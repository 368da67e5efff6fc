package io.riptide.gateway.origin;

import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.riptide.core.http.Headers;
import java.util.Locale;
import java.util.Set;

/**
 * The header fields the fetcher sends: the caller's, minus anything that could carry a user's
 * credentials (so nothing private enters the shared cache) and minus the fields the fetcher owns
 * (framing and connection management).
 */
final class OutgoingHeaders {
    /** Credentials by name; {@link #CREDENTIAL_HINTS} catches the custom ones. */
    private static final Set<String> CREDENTIALS = Set.of(
            "cookie", "cookie2", "authorization", "proxy-authorization", "www-authenticate", "proxy-authenticate");
    /** Name fragments of custom credential fields (X-Api-Key, X-Auth-Token, X-CSRF-Token, ...). */
    private static final Set<String> CREDENTIAL_HINTS = Set.of(
            "auth", "token", "api-key", "apikey", "session", "csrf", "xsrf", "secret", "password", "credential");
    /** Fields the fetcher sets itself: hop-by-hop and message framing (it never sends a body). */
    private static final Set<String> OWNED = Set.of(
            "host", "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
            "content-length", "expect");

    private OutgoingHeaders() {
    }

    /** Whether the fetcher drops a caller's field called {@code name}. */
    static boolean dropped(String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (CREDENTIALS.contains(n) || OWNED.contains(n)) {
            return true;
        }
        for (String hint : CREDENTIAL_HINTS) {
            if (n.contains(hint)) {
                return true;
            }
        }
        return false;
    }

    /** Null if every field of {@code headers} can be sent as is, else why not. */
    static String problem(Headers headers) {
        for (Headers.Field f : headers.fields()) {
            if (!isToken(f.name())) {
                return "has a header name that is not an HTTP token: " + quoted(f.name());
            }
            // A CR or LF would let a value smuggle in a field of its own (a Cookie, say).
            for (int i = 0; i < f.value().length(); i++) {
                char c = f.value().charAt(i);
                if (c == '\r' || c == '\n' || c == 0 || c > 0xff) {
                    return "has a control or non-Latin-1 character in header " + f.name();
                }
            }
        }
        return null;
    }

    /** The fields to send to {@code key}: Host, then the caller's allowed fields, then a User-Agent if none. */
    static HttpHeaders build(OriginKey key, Headers callers, String userAgent) {
        HttpHeaders out = new DefaultHttpHeaders();
        out.add(HttpHeaderNames.HOST, Urls.hostHeader(key));
        for (Headers.Field f : callers.fields()) {
            if (!dropped(f.name())) {
                out.add(f.name(), f.value());
            }
        }
        if (!out.contains(HttpHeaderNames.USER_AGENT)) {
            out.add(HttpHeaderNames.USER_AGENT, userAgent);
        }
        return out;
    }

    private static boolean isToken(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return !s.isEmpty();
    }

    private static String quoted(String s) {
        return "\"" + s.replaceAll("[\\p{Cntrl}]", "?") + "\"";
    }
}
