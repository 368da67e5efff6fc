package io.riptide.proxy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** A socket that speaks raw HTTP/1.1 to the proxy, for what the JDK client won't send: pipelining, bad input, CONNECT. */
final class RawClient implements AutoCloseable {
    /** One parsed response. */
    record Response(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    final Socket socket;
    final InputStream in;

    RawClient(InetSocketAddress proxy) throws IOException {
        this(proxy, null);
    }

    /** Connects from {@code from} (any loopback address stands in for another machine), or from the default when null. */
    RawClient(InetSocketAddress proxy, InetAddress from) throws IOException {
        socket = new Socket();
        if (from != null) {
            socket.bind(new InetSocketAddress(from, 0));
        }
        socket.connect(proxy, 10_000);
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true);
        in = socket.getInputStream();
    }

    void send(String text) throws IOException {
        socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
        socket.getOutputStream().flush();
    }

    String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1) {
            if (c == '\n') {
                break;
            }
            if (c != '\r') {
                b.write(c);
            }
        }
        if (c == -1 && b.size() == 0) {
            throw new java.io.EOFException("connection closed");
        }
        return b.toString(StandardCharsets.ISO_8859_1);
    }

    /** Reads one response; {@code head} true for a response to HEAD (or CONNECT's 200), which has no body. */
    Response read(boolean head) throws IOException {
        String status = line();
        int code = Integer.parseInt(status.split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String l; !(l = line()).isEmpty(); ) {
            int colon = l.indexOf(':');
            headers.merge(l.substring(0, colon).trim().toLowerCase(Locale.ROOT), l.substring(colon + 1).trim(), (a, b) -> a + ", " + b);
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (!head && code != 204 && code != 304) {
            if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                for (int size; (size = Integer.parseInt(line().trim(), 16)) > 0; ) {
                    body.write(in.readNBytes(size));
                    line();
                }
                while (!line().isEmpty()) {
                    // trailers
                }
            } else if (headers.containsKey("content-length")) {
                body.write(in.readNBytes(Integer.parseInt(headers.get("content-length"))));
            } else {
                body.write(in.readAllBytes());
            }
        }
        return new Response(code, headers, body.toString(StandardCharsets.UTF_8));
    }

    Response read() throws IOException {
        return read(false);
    }

    /** Whether the proxy closed the connection (reads end of stream within the socket timeout). */
    boolean closedByPeer() {
        try {
            return in.read() == -1;
        } catch (IOException e) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
