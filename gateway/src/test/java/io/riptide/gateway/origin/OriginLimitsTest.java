package io.riptide.gateway.origin;

import static io.riptide.gateway.origin.Outcomes.failure;
import static io.riptide.gateway.origin.Outcomes.response;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.riptide.core.testing.ManualClock;
import io.riptide.gateway.origin.FetchException.Reason;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Origins that misbehave: too big, cut short, malformed, slow, or asked too often. */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class OriginLimitsTest {
    private static final int LIMIT = 1024;
    private static EventLoopGroup group;
    private OriginFetcher fetcher;

    @BeforeAll
    static void startGroup() {
        group = new NioEventLoopGroup(2);
    }

    @AfterAll
    static void stopGroup() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @BeforeEach
    void start() {
        fetcher = new OriginFetcher(group, OriginFetcherConfig.defaults().withPrivateOrigins(true).withMaxBodyBytes(LIMIT)
                .withDeadline(Duration.ofSeconds(2)), OriginTls.systemDefault(), new ManualClock(0));
    }

    @AfterEach
    void stop() {
        fetcher.close();
    }

    @Test
    void aBodyOfExactlyTheLimitIsFine() throws Exception {
        try (TestOrigin origin = new TestOrigin(group, null, TestOrigin.ok("x".repeat(LIMIT)))) {
            assertEquals(LIMIT, response(fetcher.fetch(OriginRequest.get(origin.url("/ok")))).body().length);
        }
    }

    @Test
    void contentLengthOverTheLimitIsRefusedBeforeTheBody() throws Exception {
        // Promises 10 MiB and sends only a little: refused from the header alone, long before any timeout.
        String head = "HTTP/1.1 200 OK\r\nContent-Length: 10485760\r\n\r\n" + "x".repeat(100);
        try (ScriptedOrigin origin = new ScriptedOrigin(out -> {
            out.write(head.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            Thread.sleep(5_000);
        })) {
            long t0 = System.nanoTime();
            FetchException e = failure(fetcher.fetch(OriginRequest.get(origin.url("/big"))), Reason.TOO_LARGE);
            assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(1), "refused early");
            assertEquals("origin " + origin.url("/big") + " sent a body larger than the 1 KiB limit", e.getMessage());
        }
    }

    @Test
    void aChunkedBodyOverTheLimitIsRefused() throws Exception {
        StringBuilder chunks = new StringBuilder("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n");
        for (int i = 0; i < 20; i++) {
            chunks.append("64\r\n").append("y".repeat(100)).append("\r\n");
        }
        chunks.append("0\r\n\r\n");
        try (ScriptedOrigin origin = new ScriptedOrigin(ScriptedOrigin.raw(chunks.toString()))) {
            failure(fetcher.fetch(OriginRequest.get(origin.url("/chunks"))), Reason.TOO_LARGE);
        }
    }

    @Test
    void aBodyDelimitedByCloseOverTheLimitIsRefused() throws Exception {
        String raw = "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n" + "z".repeat(3 * LIMIT);
        try (ScriptedOrigin origin = new ScriptedOrigin(ScriptedOrigin.raw(raw))) {
            failure(fetcher.fetch(OriginRequest.get(origin.url("/eof"))), Reason.TOO_LARGE);
        }
    }

    @Test
    void aBodyDelimitedByCloseWithinTheLimitIsFine() throws Exception {
        try (ScriptedOrigin origin = new ScriptedOrigin(ScriptedOrigin.raw("HTTP/1.1 200 OK\r\n\r\nuntil-close"))) {
            assertEquals("until-close", new String(response(fetcher.fetch(OriginRequest.get(origin.url("/e")))).body(),
                    StandardCharsets.UTF_8));
        }
    }

    @Test
    void aContentLengthBodyCutShortIsTruncated() throws Exception {
        try (ScriptedOrigin origin = new ScriptedOrigin(ScriptedOrigin.raw("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly-this"))) {
            FetchException e = failure(fetcher.fetch(OriginRequest.get(origin.url("/cut"))), Reason.TRUNCATED);
            assertTrue(e.getMessage().contains("before the end of the body"), e.getMessage());
        }
    }

    @Test
    void aChunkedBodyCutShortIsTruncated() throws Exception {
        try (ScriptedOrigin origin = new ScriptedOrigin(ScriptedOrigin.raw(
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n10\r\nabc"))) {
            failure(fetcher.fetch(OriginRequest.get(origin.url("/cut"))), Reason.TRUNCATED);
        }
    }

    @Test
    void closingBeforeAnyAnswerIsTruncated() throws Exception {
        try (ScriptedOrigin origin = new ScriptedOrigin(ScriptedOrigin.raw(""))) {
            FetchException e = failure(fetcher.fetch(OriginRequest.get(origin.url("/none"))), Reason.TRUNCATED);
            assertTrue(e.getMessage().contains("before sending a complete response"), e.getMessage());
        }
    }

    @Test
    void aBadStatusLineIsMalformed() throws Exception {
        try (ScriptedOrigin origin = new ScriptedOrigin(ScriptedOrigin.raw("HTTP/1.1 abc\r\nContent-Length: 0\r\n\r\n"))) {
            FetchException e = failure(fetcher.fetch(OriginRequest.get(origin.url("/bad"))), Reason.MALFORMED_RESPONSE);
            assertTrue(e.getMessage().startsWith("origin " + origin.url("/bad") + " sent a malformed response"), e.getMessage());
        }
    }

    @Test
    void garbageInsteadOfHttpIsMalformed() throws Exception {
        try (ScriptedOrigin origin = new ScriptedOrigin(ScriptedOrigin.raw("SSH-2.0-OpenSSH_9.6\r\n\r\n"))) {
            failure(fetcher.fetch(OriginRequest.get(origin.url("/ssh"))), Reason.MALFORMED_RESPONSE);
        }
    }

    @Test
    void anInvalidChunkSizeIsMalformed() throws Exception {
        try (ScriptedOrigin origin = new ScriptedOrigin(ScriptedOrigin.raw(
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n"))) {
            failure(fetcher.fetch(OriginRequest.get(origin.url("/chunk"))), Reason.MALFORMED_RESPONSE);
        }
    }

    @Test
    void conflictingContentLengthsAreMalformed() throws Exception {
        try (ScriptedOrigin origin = new ScriptedOrigin(ScriptedOrigin.raw(
                "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd"))) {
            failure(fetcher.fetch(OriginRequest.get(origin.url("/cl"))), Reason.MALFORMED_RESPONSE);
        }
    }

    @Test
    void headersOverTheLimitAreMalformed() throws Exception {
        String huge = "HTTP/1.1 200 OK\r\nX-Big: " + "h".repeat(70 * 1024) + "\r\nContent-Length: 0\r\n\r\n";
        try (ScriptedOrigin origin = new ScriptedOrigin(ScriptedOrigin.raw(huge))) {
            failure(fetcher.fetch(OriginRequest.get(origin.url("/h"))), Reason.MALFORMED_RESPONSE);
        }
    }

    @Test
    void aSlowDripHitsTheDeadline() throws Exception {
        try (ScriptedOrigin origin = new ScriptedOrigin(out -> {
            out.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            for (int i = 0; i < 100; i++) {
                out.write('d');
                out.flush();
                Thread.sleep(1_000);
            }
        })) {
            long t0 = System.nanoTime();
            FetchException e = failure(fetcher.fetch(OriginRequest.get(origin.url("/drip"))), Reason.TIMEOUT);
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertTrue(ms >= 1_900 && ms < 3_000, "took " + ms + " ms for a 2 s deadline");
            assertEquals("origin " + origin.url("/drip") + " did not answer completely within the 2 s deadline", e.getMessage());
        }
    }

    @Test
    void aSilentOriginHitsTheDeadline() throws Exception {
        try (ScriptedOrigin origin = new ScriptedOrigin(out -> Thread.sleep(8_000))) {
            failure(fetcher.fetch(OriginRequest.get(origin.url("/silent"))), Reason.TIMEOUT);
        }
    }

    @Test
    void theRatePerHostIsLimitedWithoutQueueing() throws Exception {
        ManualClock clock = new ManualClock(0);
        try (OriginFetcher limited = new OriginFetcher(group, OriginFetcherConfig.defaults().withPrivateOrigins(true).withRate(2.0, 3),
                OriginTls.systemDefault(), clock);
                TestOrigin origin = new TestOrigin(group, null, TestOrigin.ok("r"))) {
            for (int i = 0; i < 3; i++) {
                response(limited.fetch(OriginRequest.get(origin.url("/r" + i))));
            }
            long t0 = System.nanoTime();
            FetchException e = failure(limited.fetch(OriginRequest.get(origin.url("/r3"))), Reason.RATE_LIMITED);
            assertTrue(System.nanoTime() - t0 < TimeUnit.MILLISECONDS.toNanos(500), "refused at once");
            assertTrue(e.getMessage().contains("127.0.0.1"), e.getMessage());
            assertEquals(3, origin.seen().size());
            clock.advance(500);
            response(limited.fetch(OriginRequest.get(origin.url("/r4"))));
            assertEquals(1, limited.metrics().failures(Reason.RATE_LIMITED));
        }
    }
}
