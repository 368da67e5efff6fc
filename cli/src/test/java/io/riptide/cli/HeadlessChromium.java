package io.riptide.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * Headless Chromium for tests: loads one URL through an HTTP proxy and returns the DOM after the page's load
 * event, or saves a screenshot. Each run gets a fresh profile and is killed at its timeout. Where Chromium is absent
 * the test fails, so a CI without it cannot go green unseen, unless RIPTIDE_NO_BROWSER=1 says to skip browser tests
 * here; CI installs it ({@code .ci/run}).
 */
final class HeadlessChromium {
    private static final List<String> KNOWN_PLACES = List.of("/usr/bin/chromium", "/usr/bin/chromium-browser");
    private final Path binary;
    private final InetSocketAddress proxy;
    private final Duration timeout;
    private final String windowSize;
    /** The HOME Chromium runs with (its NSS database, $HOME/.pki/nssdb, holds the certificates it trusts), or null for ours. */
    private final Path home;

    private HeadlessChromium(Path binary, InetSocketAddress proxy, Duration timeout, String windowSize, Path home) {
        this.binary = binary;
        this.proxy = proxy;
        this.timeout = timeout;
        this.windowSize = windowSize;
        this.home = home;
    }

    /**
     * Chromium sending every request, loopback ones included, through {@code proxy}. Fails the test if Chromium is
     * missing, unless {@code RIPTIDE_NO_BROWSER=1} says to skip browser tests here.
     */
    static HeadlessChromium throughProxy(InetSocketAddress proxy, Duration timeout) {
        return new HeadlessChromium(binary(), proxy, timeout, "800,600", null);
    }

    /**
     * Chromium loading pages directly (no proxy) in a 1200x900 window. Fails the test if Chromium is
     * missing, unless {@code RIPTIDE_NO_BROWSER=1} says to skip browser tests here.
     */
    static HeadlessChromium direct(Duration timeout) {
        return new HeadlessChromium(binary(), null, timeout, "1200,900", null);
    }

    /**
     * This Chromium run with {@code home} as HOME: on Linux it trusts the certificate authorities added to
     * {@code home/.pki/nssdb} (as {@code certutil -d sql:$HOME/.pki/nssdb -A -t C,,} adds them) besides its own roots.
     */
    HeadlessChromium withHome(Path home) {
        return new HeadlessChromium(binary, proxy, timeout, windowSize, home);
    }

    /** The installed binary; a missing one fails the test, or skips it where RIPTIDE_NO_BROWSER=1 was chosen. */
    private static Path binary() {
        Optional<Path> binary = KNOWN_PLACES.stream().map(Path::of).filter(Files::isExecutable).findFirst();
        if (binary.isEmpty()) {
            Assumptions.assumeFalse("1".equals(System.getenv("RIPTIDE_NO_BROWSER")), "RIPTIDE_NO_BROWSER=1: browser tests skipped");
            throw new AssertionError("chromium is not installed (looked in " + KNOWN_PLACES + "): install it (apt-get install"
                    + " chromium; .ci/run does) or set RIPTIDE_NO_BROWSER=1 to skip the browser tests");
        }
        return binary.get();
    }

    /** Loads {@code url} and returns the serialized DOM once the page has loaded. */
    String dumpDom(String url) throws IOException, InterruptedException {
        return run(List.of("--dump-dom", url));
    }

    /** Loads {@code url} in the window size chosen and saves a PNG screenshot of it to {@code png}. */
    void screenshot(String url, Path png) throws IOException, InterruptedException {
        Files.createDirectories(png.toAbsolutePath().getParent());
        run(List.of("--screenshot=" + png.toAbsolutePath(), "--window-size=" + windowSize, url));
        if (!Files.isRegularFile(png)) {
            throw new IOException("chromium wrote no screenshot to " + png);
        }
    }

    private String run(List<String> action) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory("riptide-chromium");
        Path output = profile.resolve("stdout.txt");
        Path log = profile.resolve("stderr.txt");
        List<String> command = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + profile.resolve("profile")));
        if (proxy != null) {
            command.add("--proxy-server=http://127.0.0.1:" + proxy.getPort());
            // Chromium never proxies loopback unless told to; this rule removes that implicit bypass.
            command.add("--proxy-bypass-list=<-loopback>");
        }
        command.addAll(action);
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(output.toFile()).redirectError(log.toFile());
        if (home != null) {
            builder.environment().put("HOME", home.toString());
        }
        Process process = builder.start();
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IOException("chromium did not finish within " + timeout + ": " + tail(log));
            }
            if (process.exitValue() != 0) {
                throw new IOException("chromium exited with " + process.exitValue() + ": " + tail(log));
            }
            return Files.readString(output, StandardCharsets.UTF_8);
        } finally {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            deleteTree(profile);
        }
    }

    private static String tail(Path log) throws IOException {
        String text = Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
        return text.substring(Math.max(0, text.length() - 3000));
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover temp profile is harmless
        }
    }
}
