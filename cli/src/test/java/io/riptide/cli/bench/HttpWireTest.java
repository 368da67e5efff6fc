package io.riptide.cli.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The benchmark clients read responses by Content-Length and by chunks, and notice truncation. */
class HttpWireTest {
    private static InputStream wire(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    @Test
    void readsTwoKeepAliveResponsesOneByLengthOneChunked() throws IOException {
        InputStream in = wire("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"
                + "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2;x=y\r\nde\r\n0\r\n\r\n");
        String first = HttpWire.readHead(in);
        assertEquals(200, HttpWire.status(first));
        assertArrayEquals("hello".getBytes(StandardCharsets.US_ASCII), HttpWire.readResponseBody(in, first));
        String second = HttpWire.readHead(in);
        assertEquals("chunked", HttpWire.header(second, "transfer-encoding").orElseThrow());
        assertArrayEquals("abcde".getBytes(StandardCharsets.US_ASCII), HttpWire.readResponseBody(in, second));
        assertNull(HttpWire.readHead(in));
    }

    @Test
    void noBodyFor304AndTruncationIsAnError() throws IOException {
        InputStream in = wire("HTTP/1.1 304 Not Modified\r\nContent-Length: 99\r\n\r\n");
        assertEquals(0, HttpWire.readResponseBody(in, HttpWire.readHead(in)).length);
        InputStream cut = wire("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort");
        assertThrows(EOFException.class, () -> HttpWire.readResponseBody(cut, HttpWire.readHead(cut)));
        assertThrows(EOFException.class, () -> HttpWire.readHead(wire("HTTP/1.1 200 OK\r\nCont")));
        InputStream noLength = wire("HTTP/1.1 200 OK\r\n\r\nbody");
        assertThrows(IOException.class, () -> HttpWire.readResponseBody(noLength, HttpWire.readHead(noLength)));
    }
}
