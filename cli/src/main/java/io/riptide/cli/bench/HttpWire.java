package io.riptide.cli.bench;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Optional;

/** Reads HTTP/1.1 messages from a blocking stream: just enough of the protocol for the benchmark clients. */
public final class HttpWire {
    private static final int MAX_HEAD = 64 * 1024;
    private static final int MAX_BODY = 64 * 1024 * 1024;

    private HttpWire() {
    }

    /** Reads a header block up to and excluding the blank line, or returns null at a clean end of stream. */
    public static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream(512);
        int matched = 0; // how much of CR LF CR LF has been seen
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                if (head.size() == 0) {
                    return null;
                }
                throw new EOFException("connection closed inside a header block");
            }
            head.write(b);
            matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : (b == '\r' ? 1 : 0);
            if (head.size() > MAX_HEAD) {
                throw new IOException("header block longer than " + MAX_HEAD + " bytes");
            }
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        return text.substring(0, text.length() - 4);
    }

    /** The status code from a response head's status line. */
    public static int status(String head) {
        String[] parts = head.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/")) {
            throw new IllegalArgumentException("not a status line: " + firstLine(head));
        }
        return Integer.parseInt(parts[1]);
    }

    /** The first line of a head: the request line or the status line. */
    public static String firstLine(String head) {
        int end = head.indexOf("\r\n");
        return end < 0 ? head : head.substring(0, end);
    }

    /** The value of the first header called {@code name} (case-insensitive), if any. */
    public static Optional<String> header(String head, String name) {
        String prefix = name.toLowerCase(Locale.ROOT) + ":";
        for (String line : head.split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith(prefix)) {
                return Optional.of(line.substring(prefix.length()).trim());
            }
        }
        return Optional.empty();
    }

    /** Reads the body that follows a response head, by Content-Length or chunked coding; none for 1xx, 204 and 304. */
    public static byte[] readResponseBody(InputStream in, String head) throws IOException {
        int status = status(head);
        if (status / 100 == 1 || status == 204 || status == 304) {
            return new byte[0];
        }
        if (header(head, "Transfer-Encoding").map(v -> v.toLowerCase(Locale.ROOT).contains("chunked")).orElse(false)) {
            return readChunked(in);
        }
        Optional<String> length = header(head, "Content-Length");
        if (length.isEmpty()) {
            // Keep-alive is impossible without a length; the benchmarks treat it as a broken peer.
            throw new IOException("response without Content-Length or chunked coding: " + firstLine(head));
        }
        long n = Long.parseLong(length.get());
        if (n < 0 || n > MAX_BODY) {
            throw new IOException("unreasonable Content-Length " + n);
        }
        byte[] body = in.readNBytes((int) n);
        if (body.length != n) {
            throw new EOFException("connection closed inside a body");
        }
        return body;
    }

    private static byte[] readChunked(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine(in);
            int semicolon = sizeLine.indexOf(';');
            int size = Integer.parseInt((semicolon < 0 ? sizeLine : sizeLine.substring(0, semicolon)).trim(), 16);
            if (size == 0) {
                while (!readLine(in).isEmpty()) {
                    // trailers carry nothing the benchmarks need
                }
                return body.toByteArray();
            }
            if (body.size() + size > MAX_BODY) {
                throw new IOException("chunked body longer than " + MAX_BODY + " bytes");
            }
            byte[] chunk = in.readNBytes(size);
            if (chunk.length != size) {
                throw new EOFException("connection closed inside a chunk");
            }
            body.write(chunk);
            readLine(in);
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new EOFException("connection closed inside a chunk header");
            }
            if (b != '\r') {
                line.append((char) b);
            }
            if (line.length() > 1024) {
                throw new IOException("chunk header line too long");
            }
        }
        return line.toString();
    }
}
