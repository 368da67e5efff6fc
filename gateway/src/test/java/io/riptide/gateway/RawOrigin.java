package io.riptide.gateway;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * An origin server on 127.0.0.1 whose every answer is written by the test, byte for byte: good
 * responses, and the ones no real server would send (truncated, malformed, endless, too slow).
 * One request per connection; it counts and keeps the request heads it saw.
 */
final class RawOrigin implements AutoCloseable {
    /** Writes the answer to one request, given its head. */
    interface Answer {
        void write(String requestHead, OutputStream out) throws IOException, InterruptedException;
    }

    private final ServerSocket server;
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final AtomicInteger hits = new AtomicInteger();
    private volatile Answer answer;

    RawOrigin(Answer answer) throws IOException {
        this.answer = answer;
        this.server = new ServerSocket(0, 512, InetAddress.getByName("127.0.0.1"));
        Thread acceptor = new Thread(this::accept, "raw-origin");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A complete HTTP/1.1 response that closes the connection. */
    static byte[] response(int status, String reason, String body, String... headers) {
        StringBuilder sb = new StringBuilder("HTTP/1.1 ").append(status).append(' ').append(reason).append("\r\n");
        for (int i = 0; i < headers.length; i += 2) {
            sb.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
        }
        byte[] b = body.getBytes(StandardCharsets.UTF_8);
        sb.append("Content-Length: ").append(b.length).append("\r\nConnection: close\r\n\r\n");
        byte[] head = sb.toString().getBytes(StandardCharsets.ISO_8859_1);
        byte[] out = new byte[head.length + b.length];
        System.arraycopy(head, 0, out, 0, head.length);
        System.arraycopy(b, 0, out, head.length, b.length);
        return out;
    }

    /** An answer that always writes {@code bytes}. */
    static Answer always(byte[] bytes) {
        return (head, out) -> out.write(bytes);
    }

    /** An answer built from the request head. */
    static Answer from(Function<String, byte[]> f) {
        return (head, out) -> out.write(f.apply(head));
    }

    void answer(Answer next) {
        this.answer = next;
    }

    int port() {
        return server.getLocalPort();
    }

    String url(String path) {
        return "http://127.0.0.1:" + port() + path;
    }

    /** Requests received so far. */
    int hits() {
        return hits.get();
    }

    List<String> requests() {
        return List.copyOf(requests);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket s = server.accept();
                Thread t = new Thread(() -> serve(s), "raw-origin-conn");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket s) {
        try (s) {
            s.setSoTimeout(15_000);
            String head = readHead(s.getInputStream());
            if (head == null) {
                return;
            }
            hits.incrementAndGet();
            requests.add(head);
            OutputStream out = s.getOutputStream();
            answer.write(head, out);
            out.flush();
        } catch (IOException | InterruptedException e) {
            // The client went away: nothing to answer.
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        int matched = 0;
        int c;
        while ((c = in.read()) >= 0 && buf.size() < 65536) {
            buf.write(c);
            matched = (c == '\r' && (matched == 0 || matched == 2)) || (c == '\n' && (matched == 1 || matched == 3)) ? matched + 1 : 0;
            if (matched == 4) {
                return buf.toString(StandardCharsets.ISO_8859_1);
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        server.close();
    }
}
