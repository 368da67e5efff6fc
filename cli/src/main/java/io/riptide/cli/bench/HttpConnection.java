package io.riptide.cli.bench;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * One persistent HTTP/1.1 connection on a blocking socket, used one request at a time. It is deliberately
 * plain — a request is one write, a response is read straight off the stream — so that its own cost is tiny
 * and the same whichever server is on the other end.
 */
public final class HttpConnection implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private HttpConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
        this.out = socket.getOutputStream();
    }

    /** Connects to {@code server} with TCP_NODELAY; every read after that gives up after {@code timeout}. */
    public static HttpConnection open(InetSocketAddress server, Duration timeout) throws IOException {
        Socket socket = new Socket();
        try {
            // Without NODELAY, Nagle and delayed ACKs add tens of milliseconds to small exchanges on loopback.
            socket.setTcpNoDelay(true);
            socket.connect(server, (int) timeout.toMillis());
            socket.setSoTimeout((int) timeout.toMillis());
            return new HttpConnection(socket);
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /**
     * Sends {@code GET target} and reads the whole response. {@code target} is a path for an origin server
     * or an absolute URL for a proxy; {@code host} is the origin's authority either way.
     */
    public HttpResponse get(String target, String host) throws IOException {
        String request = "GET " + target + " HTTP/1.1\r\nHost: " + host + "\r\nAccept: */*\r\n\r\n";
        out.write(request.getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
        String head = HttpWire.readHead(in);
        if (head == null) {
            throw new EOFException("server closed the connection instead of answering GET " + target);
        }
        return new HttpResponse(HttpWire.status(head), head, HttpWire.readResponseBody(in, head));
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // nothing left to release
        }
    }
}
