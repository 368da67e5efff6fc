package io.riptide.proxy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A deliberately lenient origin over raw sockets, as the back ends in request-smuggling research are:
 * a request whose Transfer-Encoding contains "chunked" anywhere, in any case, is read as chunked
 * (chunk sizes from their leading hex digits, extensions ignored), else by its first Content-Length
 * (leading digits), else as bodiless; lines may end in a bare LF; connections are kept alive.
 * It answers each request with its path in the body ({@code path=/x}), so a response that reaches the
 * wrong client shows it, and records every request head it read. A path given a scripted answer
 * ({@link #script}) gets those bytes instead, as they are.
 */
final class LenientOrigin implements AutoCloseable {
    /** One request as the origin read it: its head lines and body. */
    record Request(List<String> head, String body) {
        String requestLine() {
            return head.get(0);
        }

        /** Every value of header {@code name}, matched as leniently as the origin matches. */
        List<String> values(String name) {
            List<String> v = new ArrayList<>();
            for (String line : head.subList(1, head.size())) {
                int colon = line.indexOf(':');
                if (colon > 0 && line.substring(0, colon).trim().equalsIgnoreCase(name)) {
                    v.add(line.substring(colon + 1).trim());
                }
            }
            return v;
        }
    }

    private final ServerSocket server = new ServerSocket(0, 200, InetAddress.getLoopbackAddress());
    private final ExecutorService pool = Executors.newCachedThreadPool();
    final List<Request> requests = new CopyOnWriteArrayList<>();
    final AtomicInteger accepted = new AtomicInteger();
    /** Connections that ended (the proxy closed them, or the origin did after a scripted answer). */
    final AtomicInteger ended = new AtomicInteger();
    private final Map<String, byte[]> scripts = new ConcurrentHashMap<>();

    LenientOrigin() throws IOException {
        pool.execute(() -> {
            while (!server.isClosed()) {
                try {
                    Socket s = server.accept();
                    accepted.incrementAndGet();
                    pool.execute(() -> serve(s));
                } catch (IOException e) {
                    return;
                }
            }
        });
    }

    /** Answers requests for {@code path} with {@code raw}, byte for byte. */
    LenientOrigin script(String path, String raw) {
        scripts.put(path, raw.getBytes(StandardCharsets.ISO_8859_1));
        return this;
    }

    String url(String path) {
        return "http://127.0.0.1:" + server.getLocalPort() + path;
    }

    int port() {
        return server.getLocalPort();
    }

    private void serve(Socket s) {
        try (s) {
            s.setSoTimeout(30_000);
            s.setTcpNoDelay(true);
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            while (true) {
                List<String> head = new ArrayList<>();
                String line;
                while ((line = line(in)) != null && line.isEmpty() && head.isEmpty()) {
                    // blank lines before a request
                }
                if (line == null) {
                    return;
                }
                head.add(line);
                while ((line = line(in)) != null && !line.isEmpty()) {
                    head.add(line);
                }
                if (line == null) {
                    return;
                }
                Request partial = new Request(head, "");
                String body = body(in, partial);
                requests.add(new Request(head, body));
                String[] parts = head.get(0).split(" ");
                String path = parts.length > 1 ? parts[1] : "?";
                byte[] scripted = scripts.get(path);
                if (scripted != null) {
                    out.write(scripted);
                    out.flush();
                    continue;
                }
                String answer = "path=" + path;
                out.write(("HTTP/1.1 200 OK\r\nContent-Length: " + answer.length() + "\r\nCache-Control: no-store\r\n"
                        + "Content-Type: text/plain\r\n\r\n" + answer).getBytes(StandardCharsets.ISO_8859_1));
                out.flush();
            }
        } catch (IOException | RuntimeException e) {
            // the proxy closed the connection, or sent what even this origin cannot read
        } finally {
            ended.incrementAndGet();
        }
    }

    private static String body(InputStream in, Request r) throws IOException {
        boolean chunked = r.values("Transfer-Encoding").stream().anyMatch(v -> v.toLowerCase(Locale.ROOT).contains("chunked"));
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if (chunked) {
            while (true) {
                String size = line(in);
                if (size == null) {
                    throw new IOException("closed in a chunk size");
                }
                int n = leadingNumber(size, 16);
                if (n == 0) {
                    while ((size = line(in)) != null && !size.isEmpty()) {
                        // trailers
                    }
                    break;
                }
                body.write(in.readNBytes(n));
                line(in);
            }
        } else if (!r.values("Content-Length").isEmpty()) {
            body.write(in.readNBytes(leadingNumber(r.values("Content-Length").get(0), 10)));
        }
        return body.toString(StandardCharsets.ISO_8859_1);
    }

    /** The number its leading digits spell (0 for none), as lenient parsers read it. */
    private static int leadingNumber(String text, int radix) {
        int i = 0;
        String t = text.trim();
        while (i < t.length() && i < 7 && Character.digit(t.charAt(i), radix) >= 0) {
            i++;
        }
        return i == 0 ? 0 : Integer.parseInt(t.substring(0, i), radix);
    }

    /** A line ended by LF (a CR before it dropped), or null at the end of the stream. */
    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) != -1 && c != '\n') {
            b.write(c);
        }
        if (c == -1 && b.size() == 0) {
            return null;
        }
        String s = b.toString(StandardCharsets.ISO_8859_1);
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
    }

    @Override
    public void close() throws IOException {
        server.close();
        pool.shutdownNow();
    }
}
