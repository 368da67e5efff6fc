package io.riptide.proxy.framing;

import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;

/**
 * The proxy's HTTP/1.1 codecs, browser side and origin side: Netty's, with every decoded message's
 * fields kept as {@link ReceivedHeaders}, so {@link Framing#of} sees the framing fields as they arrived.
 */
public final class Codecs {
    private Codecs() {
    }

    /** The codec for browser connections: requests in, responses out. */
    public static HttpServerCodec server(int maxRequestLineBytes, int maxHeaderBytes, int maxChunkBytes) {
        return new HttpServerCodec(config(maxRequestLineBytes, maxHeaderBytes, maxChunkBytes));
    }

    /**
     * The codec for origin connections: requests out, responses in. It never decompresses, and a
     * connection that closes before a response is not an error of the codec's (the exchange reports it).
     */
    public static HttpClientCodec client(int maxStatusLineBytes, int maxHeaderBytes, int maxChunkBytes) {
        return new HttpClientCodec(config(maxStatusLineBytes, maxHeaderBytes, maxChunkBytes), false, false);
    }

    private static HttpDecoderConfig config(int maxLine, int maxHeader, int maxChunk) {
        return new HttpDecoderConfig().setMaxInitialLineLength(maxLine).setMaxHeaderSize(maxHeader).setMaxChunkSize(maxChunk)
                .setHeadersFactory(ReceivedHeaders.FACTORY);
    }
}
