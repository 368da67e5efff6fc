package io.riptide.proxy.front;

import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.LastHttpContent;

/** An exchange already answered in full (a page, an error): what is left of its request body is read and dropped. */
final class Answered implements Exchange {
    private boolean requestComplete;

    @Override
    public void requestContent(HttpContent content) {
        requestComplete |= content instanceof LastHttpContent;
        content.release();
    }

    @Override
    public boolean requestComplete() {
        return requestComplete;
    }

    @Override
    public boolean responseComplete() {
        return true;
    }

    @Override
    public void clientWritabilityChanged(boolean writable) {
    }

    @Override
    public void clientClosed() {
    }
}
