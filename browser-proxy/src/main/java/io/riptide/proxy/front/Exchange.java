package io.riptide.proxy.front;

import io.netty.handler.codec.http.HttpContent;

/** One request on a browser connection, from its head to the end of its response. */
interface Exchange {
    /** A piece of the request body; the exchange owns it. The last is a {@code LastHttpContent}. */
    void requestContent(HttpContent content);

    /** Whether the request's last content has arrived. */
    boolean requestComplete();

    /** Whether the response has been written in full. */
    boolean responseComplete();

    /** The browser's socket filled up (false) or drained (true). */
    void clientWritabilityChanged(boolean writable);

    /** The browser's connection closed. */
    void clientClosed();
}
