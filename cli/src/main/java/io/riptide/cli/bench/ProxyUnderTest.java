package io.riptide.cli.bench;

import java.net.InetSocketAddress;

/** An HTTP forward proxy a benchmark measures: started once, sent absolute-form requests, closed at the end. */
public interface ProxyUnderTest extends AutoCloseable {
    /** Starts the proxy on loopback and returns the address clients send their requests to. */
    InetSocketAddress start() throws Exception;

    /** Stops the proxy and releases everything it holds; safe to call when it never started. */
    @Override
    void close();

    /** A short name for reports, such as {@code riptide} or {@code squid}. */
    String name();
}
