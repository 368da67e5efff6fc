package io.riptide.proxy.front;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.netty.handler.codec.http.DefaultHttpHeaders;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.riptide.core.http.Headers;
import io.riptide.proxy.cache.CacheStatus;
import io.riptide.proxy.cache.MemoryHits;

/**
 * Response heads of memory hits, prepared once per kept copy instead of once per request: the stored
 * fields with the hop-by-hop ones dropped, the framing set and this proxy's {@code Via} added, and the
 * status line. A memory hit's header object is the same instance hit after hit (its {@code Age} comes
 * separately), so heads are keyed by identity and held weakly: a copy that leaves the memory tier takes
 * its head with it. Also renders the memory hit's {@code Cache-Status} once. Bounded; thread-safe.
 */
final class PreparedHeads {
    /** Heads kept at most: the hottest copies; each is a few hundred bytes. */
    static final int MAX_HEADS = 4096;

    /** A status line and header fields to copy into each response. */
    record Head(HttpResponseStatus line, HttpHeaders headers) {
    }

    private final String via;
    private final String memoryHit;
    private final Cache<Headers, Head> heads = Caffeine.newBuilder().weakKeys().maximumSize(MAX_HEADS)
            .executor(Runnable::run).build();

    PreparedHeads(String via) {
        this.via = via;
        this.memoryHit = MemoryHits.MEMORY_HIT.render(via);
    }

    /** The head for a copy stored with {@code code}, {@code reason} and {@code stored} fields, and a body of {@code length} bytes. */
    Head head(int code, String reason, Headers stored, int length) {
        Head head = heads.getIfPresent(stored);
        if (head == null || head.headers().getInt(HttpHeaderNames.CONTENT_LENGTH, -1) != length) {
            head = prepare(code, reason, stored, length);
            heads.put(stored, head);
        }
        return head;
    }

    /** The same head, made for one response (validating the fields once, as any response is). */
    Head prepare(int code, String reason, Headers stored, int length) {
        HttpHeaders h = new DefaultHttpHeaders();
        for (Headers.Field f : stored.fields()) {
            h.add(f.name(), f.value());
        }
        HopByHop.strip(h);
        h.remove(HttpHeaderNames.TRANSFER_ENCODING);
        h.setInt(HttpHeaderNames.CONTENT_LENGTH, length);
        HopByHop.addVia(h, HttpVersion.HTTP_1_1, via);
        return new Head(statusLine(code, reason), h);
    }

    /** {@code status} as {@code Cache-Status} text under this proxy's name. */
    String render(CacheStatus status) {
        return status == MemoryHits.MEMORY_HIT ? memoryHit : status.render(via);
    }

    /** The status line: Netty's shared constant unless the copy carries its own reason phrase. */
    static HttpResponseStatus statusLine(int code, String reason) {
        HttpResponseStatus standard = HttpResponseStatus.valueOf(code);
        return reason == null || reason.equals(standard.reasonPhrase()) ? standard : new HttpResponseStatus(code, reason);
    }
}
