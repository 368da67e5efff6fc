package io.riptide.dolr.transport;

import java.util.concurrent.atomic.LongAdder;

/** The live counters behind {@link TransportMetrics}; updated from any I/O thread without locks. */
final class TransportCounters {
    private final LongAdder connectionsIn = new LongAdder();
    private final LongAdder connectionsOut = new LongAdder();
    private final LongAdder handshakesFailed = new LongAdder();
    private final LongAdder handshakesTimedOut = new LongAdder();
    private final LongAdder handshakesVersionRefused = new LongAdder();
    private final LongAdder handshakesAddressRefused = new LongAdder();
    private final LongAdder framesOverHandshakeCap = new LongAdder();
    private final LongAdder refusedOverSourceCap = new LongAdder();
    private final LongAdder refusedOverTotalCap = new LongAdder();
    private final LongAdder framesRefused = new LongAdder();
    private final LongAdder framesFailedAuthentication = new LongAdder();
    private final LongAdder messagesSent = new LongAdder();
    private final LongAdder messagesReceived = new LongAdder();
    private final LongAdder messagesDropped = new LongAdder();
    private final LongAdder bytesIn = new LongAdder();
    private final LongAdder bytesOut = new LongAdder();

    void connectionIn() {
        connectionsIn.increment();
    }

    void connectionOut() {
        connectionsOut.increment();
    }

    void handshakeFailed() {
        handshakesFailed.increment();
    }

    void handshakeTimedOut() {
        handshakesTimedOut.increment();
    }

    void handshakeVersionRefused() {
        handshakesVersionRefused.increment();
    }

    void handshakeAddressRefused() {
        handshakesAddressRefused.increment();
    }

    void frameOverHandshakeCap() {
        framesOverHandshakeCap.increment();
    }

    void refusedOverSourceCap() {
        refusedOverSourceCap.increment();
    }

    void refusedOverTotalCap() {
        refusedOverTotalCap.increment();
    }

    void frameRefused() {
        framesRefused.increment();
    }

    void frameFailedAuthentication() {
        framesFailedAuthentication.increment();
    }

    void messageSent() {
        messagesSent.increment();
    }

    void messageReceived() {
        messagesReceived.increment();
    }

    void messageDropped() {
        messagesDropped.increment();
    }

    void bytesIn(long n) {
        bytesIn.add(n);
    }

    void bytesOut(long n) {
        bytesOut.add(n);
    }

    TransportMetrics snapshot(int openConnections, int unauthenticatedConnections) {
        return new TransportMetrics(connectionsIn.sum(), connectionsOut.sum(), openConnections, unauthenticatedConnections,
                refusedOverSourceCap.sum(), refusedOverTotalCap.sum(), handshakesFailed.sum(), handshakesTimedOut.sum(),
                handshakesVersionRefused.sum(), handshakesAddressRefused.sum(),
                framesRefused.sum(), framesOverHandshakeCap.sum(), framesFailedAuthentication.sum(), messagesSent.sum(), messagesReceived.sum(),
                messagesDropped.sum(), bytesIn.sum(), bytesOut.sum());
    }
}
