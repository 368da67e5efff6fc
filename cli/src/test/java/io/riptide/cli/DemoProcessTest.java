package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code riptide demo} as a newcomer meets it: a process of its own that is ready within a minute,
 * whose printed curl command, run exactly as printed, shows a miss and then an overlay hit, and
 * which stops cleanly when asked to, as Ctrl-C does.
 */
class DemoProcessTest {
    private static final Pattern READY = Pattern.compile("Ready after (\\d+) ms\\.");
    private static final Duration START_WAIT = Duration.ofSeconds(60);

    @TempDir
    Path dir;

    @Test
    @Timeout(value = 150, unit = TimeUnit.SECONDS)
    void thePrintedCurlCommandMissesThenHitsAndTheDemoStopsCleanly() throws Exception {
        // Port 0: a free port, since 3128 may be taken on a test machine; the printed command names it.
        try (NodeProcess demo = NodeProcess.command("demo", dir, "demo", "--nodes", "3", "--proxy-port", "0")) {
            Matcher ready = READY.matcher(demo.await(l -> READY.matcher(l).matches(), "that it is ready", START_WAIT));
            assertTrue(ready.matches());
            assertTrue(Long.parseLong(ready.group(1)) < START_WAIT.toMillis(), "ready within a minute: " + ready.group(0));
            String curl = demo.await(l -> l.strip().startsWith("curl "), "a curl command to try", START_WAIT).strip();

            String first = run(curl);
            assertTrue(cacheStatus(first).contains("fwd=miss"), "the first run misses:\n" + first);
            // The proxy keeps what it fetched; the demo says each URL "misses once, then hits".
            String again = "";
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (System.nanoTime() < deadline && !cacheStatus(again).startsWith("riptide; hit")) {
                TimeUnit.MILLISECONDS.sleep(300);
                again = run(curl);
            }
            assertTrue(cacheStatus(again).startsWith("riptide; hit"), "a later run of the same command is a hit:\n" + again);
            // The proxy kept its own fetch (its private tier), so the repeat is a hit at once and stays one.
            assertEquals("riptide; hit; detail=private", cacheStatus(run(curl)), "and the next one comes from the proxy's memory");
            assertTrue(again.startsWith("HTTP/1.1 200"), again);

            assertTrue(demo.stop(), "the demo stops when asked (SIGTERM, as Ctrl-C)");
            assertTrue(demo.lines().get(demo.lines().size() - 1).contains("demo stopped"), String.join("\n", demo.lines()));
            assertFalse(demo.stderr().contains("LEAK"), demo.stderr());
        }
    }

    /** Runs {@code command} through the shell exactly as a person would paste it, returning its output. */
    private static String run(String command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(List.of("bash", "-c", command)).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), command + " finished");
        String text = new String(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), command + ": " + text);
        return text;
    }

    /** The Cache-Status field of curl's printed response head, or "". */
    private static String cacheStatus(String head) {
        for (String line : head.split("\r?\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("cache-status:")) {
                return line.substring("cache-status:".length()).strip();
            }
        }
        return "";
    }
}
