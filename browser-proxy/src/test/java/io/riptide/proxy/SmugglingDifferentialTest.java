package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A differential request-smuggling test: the proxy in front of a deliberately lenient origin
 * ({@link LenientOrigin}: any Transfer-Encoding containing "chunked" is chunked, else the first
 * Content-Length) over one shared keep-alive origin connection (one event loop, one connection per
 * origin), an attacker replaying a corpus of desync variants on connections of its own and victims
 * sending ordinary requests on theirs. The corpus follows the public research (James Kettle's "HTTP
 * Desync Attacks" and the TE.TE obfuscation lists of smuggling scanners): CL.TE and TE-only requests
 * under every Transfer-Encoding name and value obfuscation crossed, duplicate and listed codings,
 * Content-Length oddities, chunk-size tricks, bare line feeds and carriage returns, NUL in a name, and
 * origin responses that are themselves ambiguous with a second response appended. Each smuggled
 * request asks for /smuggled and each split response says path=/attacker: a victim that ever reads
 * anything but the answer to its own request fails the test, and the origin must never have read a
 * request for /smuggled nor one with both framing fields.
 */
@Timeout(60)
class SmugglingDifferentialTest {
    /** The request an attack tries to prefix to the next one on the origin connection: the victim's line becomes X-Ignore's value. */
    private static final String SMUGGLED = "GET /smuggled HTTP/1.1\r\nX-Ignore: X";
    /** A whole response an ambiguous origin response carries after itself. */
    private static final String SPLIT = "HTTP/1.1 200 OK\r\nContent-Length: 14\r\n\r\npath=/attacker";

    /** Transfer-Encoding field names as obfuscated in the research (a CR LF before a name ends the head early). */
    private static final List<String> NAMES = List.of("Transfer-Encoding", "Transfer-encoding", "TrAnSfEr-EnCoDiNg",
            " Transfer-Encoding", "Transfer-Encoding ", "\tTransfer-Encoding", "Transfer-Encoding\t", "Transfer-Encoding\r\n",
            "\r\nTransfer-Encoding", "Transfer_Encoding", "Transfer-Encoding\u0000", "X: y\nTransfer-Encoding",
            "X: y\rTransfer-Encoding");
    /** Its values, likewise. */
    private static final List<String> VALUES = List.of("chunked", "CHUNKED", " chunked", "chunked ", "\tchunked", "chunked\t",
            "\r\n chunked", "\r\n\tchunked", "chunked\r\n ", "\rchunked", "chunked\r", "\u000bchunked", "\u000cchunked",
            "chunked\u0000", "\u0000chunked", "chunked, identity", "identity, chunked", "chunked, chunked", "gzip, chunked",
            "chunked, gzip", "chunked,", ",chunked", "\"chunked\"", "chunked;q=1", "xchunked", "zchunked", "chunk", "chu",
            "ch\u00f9nked", "cow", "identity", "chunked\r\nTransfer-Encoding: identity", "identity\r\nTransfer-Encoding: chunked",
            "chunked\r\nTransfer-encoding: cow", "chunked\r\nContent-Length: 3");

    private ProxyServer proxy;
    private LenientOrigin origin;
    private final List<String> wrongAnswers = new CopyOnWriteArrayList<>();

    @Test
    void noVictimEverReadsAnAnswerButItsOwn() throws Exception {
        origin = new LenientOrigin();
        List<String> attacks = corpus();
        // One loop and one connection per origin: every request, the attacker's and the victims', takes turns on it.
        try (ProxyServer p = ProxyServer.start(ProxyConfig.builder().port(0).passThrough(true).loops(1)
                .upstreamConnectionsPerOrigin(1).build(), CacheLookup.NONE); LenientOrigin o = origin) {
            proxy = p;
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger backgroundAnswers = new AtomicInteger();
            Thread background = new Thread(() -> victim("background", stop, backgroundAnswers), "victim");
            background.start();
            int answered = 0;
            RawClient victim = new RawClient(proxy.address());
            try {
                long started = System.nanoTime();
                for (int i = 0; i < attacks.size(); i++) {
                    attack(attacks.get(i));
                    String path = "/victim/" + i;
                    victim.send(get(path));
                    RawClient.Response r = victim.read();
                    if (r.status() != 200 || !r.body().equals("path=" + path)) {
                        wrongAnswers.add("after attack " + i + " " + printable(attacks.get(i)) + ": " + r.status() + " " + r.body());
                    }
                    answered++;
                }
                System.out.printf("%d attacks replayed in %d ms; %d background answers%n", attacks.size(),
                        (System.nanoTime() - started) / 1_000_000, backgroundAnswers.get());
            } finally {
                stop.set(true);
                background.join(10_000);
                victim.close();
            }
            assertEquals(attacks.size(), answered);
            assertTrue(backgroundAnswers.get() > 0, "the background victim was answered");
        }
        assertEquals(List.of(), wrongAnswers, "a victim read an answer not its own");
        for (LenientOrigin.Request r : origin.requests) {
            assertTrue(!r.requestLine().contains("/smuggled"), "the origin read a smuggled request: " + r.head());
            List<String> codings = r.values("Transfer-Encoding");
            assertTrue(codings.isEmpty() || r.values("Content-Length").isEmpty(), "both framing fields went up: " + r.head());
            assertTrue(codings.isEmpty() || codings.equals(List.of("chunked")), "a coding went up as received: " + r.head());
        }
    }

    /** The corpus: each a whole request or pipeline as sent on a fresh attacker connection. */
    private List<String> corpus() {
        List<String> attacks = new ArrayList<>();
        String body = "0\r\n\r\n" + SMUGGLED;
        for (String name : NAMES) {
            for (String value : VALUES) {
                String te = name + ":" + (value.startsWith("\r\n") ? "" : " ") + value;
                // CL.TE: a front end that goes by Content-Length forwards the smuggled prefix as body.
                attacks.add(post("Content-Length: " + body.length() + "\r\n" + te, body));
                // TE alone: a front end that sees no body leaves the chunked body to be read as the next request.
                attacks.add(post(te, body));
            }
        }
        // TE.CL: the front end reads chunked, a back end going by Content-Length would stop after "5c\r\n".
        String chunk = "GPOST / HTTP/1.1\r\nContent-Length: 15\r\n\r\nx=1";
        attacks.add(post("Content-Length: 4\r\nTransfer-Encoding: chunked",
                Integer.toHexString(chunk.length()) + "\r\n" + chunk + "\r\n0\r\n\r\n"));
        for (String length : List.of("6, 5", "5, 6", "+5", "-1", "0x5", "5.0", "1e1", "05", " 5", "5 ", "99999999999999999999",
                "4294967301", "5\r\nContent-Length: 6", "6\r\nContent-Length: 5", "0\r\nContent-Length: 40", "\r\n 5", "5\r\n 6")) {
            attacks.add(post("Content-Length: " + length, "hello" + SMUGGLED));
            attacks.add(post("Content-Length : " + length, "hello" + SMUGGLED));
        }
        for (String size : List.of("0x5", "-5", "+5", " 5", "5 ", "5\t", "5;a=b", "5;a=\"\r\n\"", "05", "FFFFFFFFFFFFFFFFF",
                "100000000", "5\u0000", "5_0")) {
            attacks.add(post("Transfer-Encoding: chunked", size + "\r\nhello\r\n0\r\n\r\n" + SMUGGLED));
        }
        // A chunked body whose last chunk is followed by a request instead of CR LF (trailer injection), data overrunning
        // its size, and bare line feeds throughout.
        attacks.add(post("Transfer-Encoding: chunked", "5\r\nhello\r\n0\r\n" + SMUGGLED + "\r\n\r\n"));
        attacks.add(post("Transfer-Encoding: chunked", "3\r\nhello\r\n0\r\n\r\n" + SMUGGLED));
        attacks.add(post("Transfer-Encoding: chunked", "5\nhello\n0\n\n" + SMUGGLED));
        attacks.add(post("Transfer-Encoding: chunked\r\nTrailer: Content-Length",
                "5\r\nhello\r\n0\r\nContent-Length: 40\r\nTransfer-Encoding: identity\r\n\r\n" + SMUGGLED));
        attacks.add(("POST " + origin.url("/upload") + " HTTP/1.1\nHost: 127.0.0.1\nContent-Length: " + body.length()
                + "\nTransfer-Encoding: chunked\n\n" + body));
        attacks.add(("POST " + origin.url("/upload") + " HTTP/1.0\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n" + body));
        attacks.add(("POST " + origin.url("/upload") + " HTTP/1.0\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n"
                + "Content-Length: " + (5 + SMUGGLED.length()) + "\r\n\r\nhello" + SMUGGLED));
        attacks.add(("GET " + origin.url("/upload") + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: " + SMUGGLED.length()
                + "\r\n\r\n" + SMUGGLED));
        // Origin responses that are ambiguous, each with a whole second response after it.
        int split = 0;
        for (String response : List.of(
                "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: xchunked\r\nContent-Length: 5\r\n\r\nhello",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, identity\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: identity\r\nContent-Length: 5\r\n\r\nhello",
                "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
                "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!",
                "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
                "HTTP/1.1 200 OK\nContent-Length: 5\nTransfer-Encoding: chunked\n\n5\nhello\n0\n\n")) {
            String path = "/split/" + split++;
            origin.script(path, response + SPLIT);
            attacks.add(get(path));
        }
        return attacks;
    }

    private String post(String fields, String body) {
        return "POST " + origin.url("/upload") + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + fields + "\r\n\r\n" + body;
    }

    private String get(String path) {
        return "GET " + origin.url(path) + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    }

    /** Sends one attack on a connection of its own and reads what comes back (at most one answer, or the end). */
    private void attack(String payload) throws IOException {
        try (RawClient attacker = new RawClient(proxy.address())) {
            attacker.socket.setSoTimeout(1_500);
            attacker.send(payload);
            try {
                attacker.read();
            } catch (IOException | RuntimeException closedOrUnreadable) {
                // refused by closing, or still waiting for more of a body: either way the attack is over
            }
        }
    }

    /** A victim on a connection of its own, asking for its own paths until told to stop. */
    private void victim(String name, AtomicBoolean stop, AtomicInteger answers) {
        try (RawClient c = new RawClient(proxy.address())) {
            for (int i = 0; !stop.get(); i++) {
                String path = "/" + name + "/" + i;
                c.send(get(path));
                RawClient.Response r = c.read();
                if (r.status() != 200 || !r.body().equals("path=" + path)) {
                    wrongAnswers.add(name + " " + path + ": " + r.status() + " " + r.body());
                }
                answers.incrementAndGet();
            }
        } catch (IOException e) {
            wrongAnswers.add(name + " lost its connection: " + e);
        }
    }

    private static String printable(String s) {
        String shown = s.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t").replace("\u0000", "\\0");
        return shown.length() > 160 ? shown.substring(0, 160) + "..." : shown;
    }
}
