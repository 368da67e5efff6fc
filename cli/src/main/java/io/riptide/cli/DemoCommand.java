package io.riptide.cli;

import io.riptide.cli.demo.LoopbackRiptide;
import io.riptide.cli.demo.SampleSite;
import io.riptide.cli.demo.WanBox;
import io.riptide.cli.demo.WanDemo;
import io.riptide.cli.errors.CommandFailure;
import io.riptide.dolr.server.NodeStatus;
import io.riptide.core.net.OriginTrust;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.gateway.origin.OriginTls;
import io.riptide.proxy.cache.OverlayCacheConfig;
import io.riptide.proxy.tls.Interception;
import java.io.PrintWriter;
import java.net.BindException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code riptide demo}: a whole small Riptide on loopback — storage nodes over real TCP, a gateway, a
 * sample web site and the browser proxy — shown serving a page first from the origin, then from the
 * overlay; then it keeps running so a person can point curl or a browser at it.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Starts a small Riptide on loopback and shows it serving a page.",
            "Overlay nodes (real TCP), a gateway, two cache managers, a sample web site and the browser proxy on 127.0.0.1:3128. "
            + "Shows a page served first from the origin, then from the overlay, prints what to try, and keeps "
            + "running until Ctrl-C (or --duration)."},
        footerHeading = "%nExamples:%n",
        footer = {"  riptide demo", "  riptide demo --nodes 3 --duration 60s", "  sudo riptide demo --wan"})
final class DemoCommand implements Callable<Integer> {
    /** Two, so a newcomer sees hints go to whichever is nearest with nothing configured. */
    private static final int CACHE_MANAGERS = 2;
    /** How long Ctrl-C waits for the demo to close before the JVM exits anyway. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(20);

    @Spec
    private CommandSpec spec;

    @Option(names = "--nodes", paramLabel = "N", defaultValue = "6",
            description = "Storage nodes to start besides the gateway, 1 to 32 (default: ${DEFAULT-VALUE}).")
    private int nodes;

    @Option(names = "--proxy-port", paramLabel = "P", defaultValue = "3128",
            description = "Port of the browser proxy; if it is taken a free one is used (default: ${DEFAULT-VALUE}).")
    private int proxyPort;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "0s", converter = DurationConverter.class,
            description = "How long to keep running after the tour, e.g. 30s; 0s runs until Ctrl-C (default: ${DEFAULT-VALUE}).")
    private Duration duration;

    @Option(names = "--status-every", paramLabel = "DURATION", defaultValue = "10s", converter = DurationConverter.class,
            description = "How often to print the overlay's status while it runs (default: ${DEFAULT-VALUE}).")
    private Duration statusEvery;

    @Option(names = "--intercept", paramLabel = "HOSTS",
            description = "Also intercept HTTPS to these hosts (a comma-separated list, or all), as riptide proxy --intercept "
                + "does: needs riptide ca init first, and the browser trusting that CA (default: none, HTTPS is tunnelled).")
    private List<String> intercept = new ArrayList<>();

    @Option(names = "--ca-dir", paramLabel = "DIR",
            description = "The local CA for --intercept, as riptide ca init made it (default: ~/.riptide/ca).")
    private Path caDir;

    @Option(names = "--origin-ca", paramLabel = "FILE",
            description = "Also trust the CA certificates in this PEM file for https:// origins, in the gateway and the proxy "
                + "alike, besides the system trust store: for an https test origin of your own; repeatable (default: none).")
    private List<Path> originTrust = new ArrayList<>();

    @Option(names = "--wan",
            description = "Instead, a WAN in a box (root only): three network namespaces behind 1.5 Mb/s uplinks, an ISP with "
                + "the gateway and the sample site, two campuses with two nodes, a cache manager and a proxy each, every one "
                + "a riptide process of its own, and a status page with each uplink's bytes (default: off).")
    private boolean wan;

    /** How the demo's gateway and proxy treat HTTPS, from the options. */
    private record Https(OriginTls gateway, Interception proxy) {
    }

    /** Set from the options when the demo starts. */
    private Https https;

    @Override
    public Integer call() throws Exception {
        if (nodes < 1 || nodes > 32) {
            throw new ParameterException(spec.commandLine(), "--nodes must be between 1 and 32, got " + nodes);
        }
        if (proxyPort < 0 || proxyPort > 0xffff) {
            throw new ParameterException(spec.commandLine(), "--proxy-port must be between 0 and 65535, got " + proxyPort);
        }
        if (statusEvery.isZero() || statusEvery.isNegative()) {
            throw new ParameterException(spec.commandLine(), "--status-every must be longer than zero");
        }
        if (!originTrust.isEmpty() && intercept.isEmpty()) {
            // The gateway alone could use it, but no https URL reaches the demo's cache without interception.
            throw new ParameterException(spec.commandLine(), "--origin-ca applies to intercepted HTTPS only: add --intercept HOSTS (or all)");
        }
        if (wan) {
            if (!intercept.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "--wan does not intercept HTTPS: leave out --intercept");
            }
            return wan(spec.commandLine().getOut());
        }
        Interception interception;
        OriginTls gatewayTls;
        try {
            interception = Interception.fromOptions(intercept, caDir, originTrust);
            gatewayTls = OriginTls.trusting(OriginTrust.systemPlus(originTrust));
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        } catch (java.io.IOException e) {
            throw new ParameterException(spec.commandLine(), "--origin-ca: " + e.getMessage());
        }
        this.https = new Https(gatewayTls, interception);
        PrintWriter out = spec.commandLine().getOut();
        long start = System.nanoTime();
        say(out, "Starting a small Riptide on loopback: " + nodes + " storage nodes, a gateway, " + CACHE_MANAGERS
                + " cache managers and the browser proxy...");
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        try (SampleSite site = new SampleSite(0); LoopbackRiptide riptide = startRiptide(out)) {
            // On Ctrl-C the JVM halts once its hooks return: this one waits (bounded) until the demo has
            // closed everything below, so nodes leave and ports are freed rather than cut off.
            Thread hook = new Thread(() -> {
                stop.countDown();
                try {
                    closed.await(CLOSE_WAIT.toSeconds(), TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "riptide-demo-shutdown");
            Runtime.getRuntime().addShutdownHook(hook);
            tour(out, site, riptide, start);
            long end = duration.isZero() ? Long.MAX_VALUE : System.nanoTime() + duration.toNanos();
            while (System.nanoTime() < end) {
                long wait = Math.min(statusEvery.toNanos(), end - System.nanoTime());
                if (stop.await(Math.max(1, wait), TimeUnit.NANOSECONDS)) {
                    break;
                }
                if (System.nanoTime() < end) {
                    printStatus(out, riptide);
                }
            }
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the JVM is already stopping; closing below still runs.
            }
        } finally {
            say(out, "demo stopped");
            closed.countDown();
        }
        return 0;
    }

    /** {@code --wan}: the box, a tour, then the uplinks' bytes now and then until Ctrl-C or the duration. */
    private int wan(PrintWriter out) throws Exception {
        Optional<String> why = WanBox.unavailable();
        if (why.isPresent()) {
            throw new CommandFailure("--wan " + why.get() + "; run it as root (sudo), or run riptide demo "
                    + "without --wan for the loopback demo");
        }
        long start = System.nanoTime();
        Path dir = Files.createTempDirectory("riptide-wan-demo");
        say(out, "Building a WAN in a box: a router, an ISP and two campuses behind " + WanBox.UPLINK_RATE
                + " uplinks, each process a riptide of its own (output in " + dir + ")...");
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.countDown();
            try {
                closed.await(CLOSE_WAIT.toSeconds() * 3, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "riptide-demo-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try (WanDemo demo = WanDemo.start(dir, out)) {
            say(out, String.format("Ready after %d ms. Status page with the uplinks' bytes, live: %s",
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), demo.pageUrl()));
            say(out, "");
            say(out, "/index.html through campus 1's proxy, then campus 2's:");
            say(out, "  " + demo.uplinkLine());
            say(out, "  campus1 first:  " + demo.fetch("campus1", "/index.html") + "  <- from the origin, across two uplinks");
            say(out, "  campus1 again:  " + demo.fetch("campus1", "/index.html") + "  <- from the proxy's memory; seen twice, "
                    + "it asks the gateway to insert it");
            // The insert crosses the ISP's uplink and is signed and published there: a few seconds on this WAN.
            Thread.sleep(5000);
            say(out, "  campus2 first:  " + demo.fetch("campus2", "/index.html") + "  <- from the overlay, signed by the gateway");
            say(out, "  " + demo.uplinkLine());
            say(out, "");
            say(out, "Try it yourself (as root; the proxies are inside the campuses' namespaces):");
            say(out, "  " + demo.curlCommand("campus1", "/style.css"));
            say(out, "  " + demo.curlCommand("campus2", "/style.css"));
            say(out, duration.isZero() ? "Stop with Ctrl-C." : "Stopping in " + duration.toSeconds() + " s.");
            long end = duration.isZero() ? Long.MAX_VALUE : System.nanoTime() + duration.toNanos();
            while (System.nanoTime() < end) {
                long wait = Math.min(statusEvery.toNanos(), end - System.nanoTime());
                if (stop.await(Math.max(1, wait), TimeUnit.NANOSECONDS)) {
                    break;
                }
                say(out, demo.uplinkLine());
            }
        } finally {
            say(out, "demo stopped");
            closed.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // Ctrl-C: the JVM is already stopping; everything above is closed.
            }
        }
        return 0;
    }

    private LoopbackRiptide startRiptide(PrintWriter out) throws InterruptedException {
        try {
            return new LoopbackRiptide(nodes, CACHE_MANAGERS, proxyPort, https.gateway(), b -> b.interception(https.proxy()),
                    OverlayCacheConfig.defaults());
        } catch (RuntimeException e) {
            if (proxyPort != 0 && causedBy(e, BindException.class)) {
                say(out, "Port " + proxyPort + " is taken; the proxy takes a free port instead.");
                return new LoopbackRiptide(nodes, CACHE_MANAGERS, 0, https.gateway(), b -> b.interception(https.proxy()),
                        OverlayCacheConfig.defaults());
            }
            throw e;
        }
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t) || (t.getMessage() != null && t.getMessage().contains("Address already in use"))) {
                return true;
            }
        }
        return false;
    }

    private void tour(PrintWriter out, SampleSite site, LoopbackRiptide riptide, long start) throws Exception {
        for (OverlayServer s : riptide.storageNodes()) {
            say(out, String.format("  node     %s  %s", s.self().id().shortHex(), s.address()));
        }
        say(out, String.format("  gateway  %s  %s  (provider key %s)", riptide.gateway().self().id().shortHex(),
                riptide.gateway().address(), riptide.provider().publicKey()));
        for (OverlayServer m : riptide.cacheManagers()) {
            say(out, String.format("  manager  %s  %s  (takes the proxy's hints when it is the nearest)", m.self().id().shortHex(), m.address()));
        }
        String proxy = "http://127.0.0.1:" + riptide.proxyAddress().getPort();
        say(out, "  proxy    " + proxy + "  (status " + proxy + "/status, PAC " + proxy + "/proxy.pac)");
        say(out, "  site     " + site.url("/") + "  (a sample page with a picture, a style sheet and a script)");
        if (https.proxy().on()) {
            say(out, "  https    intercepted for " + https.proxy().policy() + " with the CA " + https.proxy().ca().certificateFile()
                    + "; origins verified against " + https.proxy().trustDescription());
        }
        say(out, String.format("Ready after %d ms.", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)));
        say(out, "");
        URI page = URI.create(site.url("/index.html"));
        say(out, "Fetching " + page + " through the proxy:");
        HttpResponse<byte[]> first = riptide.fetch(page);
        say(out, "  first:  " + describe(first) + "  <- from the origin; the proxy keeps it and tells the cache manager it saw it");
        say(out, "  again:  " + describe(riptide.fetch(page)) + "  <- from the proxy's own memory, no second origin fetch; "
                + "seen twice, it asks the gateway to sign and insert it into the overlay for the other proxies");
        say(out, "");
        say(out, "Try it yourself (each URL misses once, then hits):");
        say(out, "  curl -s -o /dev/null -D - -x " + proxy + " " + site.url("/style.css"));
        if (https.proxy().on()) {
            say(out, "  curl -s -o /dev/null -D - --cacert " + https.proxy().ca().certificateFile() + " -x " + proxy
                    + " https://HOST/PATH   (an intercepted host: a miss, then a hit)");
        }
        say(out, "  open " + proxy + "/status in a browser, or point one at " + proxy + "/proxy.pac and visit " + site.url("/"));
        say(out, "  ./riptide inspect " + page + " --join " + riptide.storageNodes().get(0).address()
                + " --provider " + riptide.provider().publicKey());
        say(out, "  ./riptide node --port 0 --join " + riptide.storageNodes().get(0).address() + "   (adds a node)");
        say(out, duration.isZero() ? "Stop with Ctrl-C." : "Stopping in " + duration.toSeconds() + " s.");
    }

    private static String describe(HttpResponse<byte[]> r) {
        return r.statusCode() + ", " + r.body().length + " bytes, Cache-Status: " + r.headers().firstValue("Cache-Status").orElse("(none)");
    }

    private static void printStatus(PrintWriter out, LoopbackRiptide riptide) {
        int replicas = 0;
        long messages = 0;
        for (OverlayServer s : riptide.all()) {
            try {
                NodeStatus st = s.status().get(5, TimeUnit.SECONDS);
                replicas += st.replicas();
                messages += st.transport().messagesReceived();
            } catch (Exception e) {
                // A node that is busy or closing is left out of this line.
            }
        }
        var stats = riptide.proxy().server().stats();
        say(out, String.format("status: proxy hits %d, misses %d, bypasses %d; overlay %d nodes, %d replicas, %d messages",
                stats.hits(), stats.misses(), stats.bypasses(), riptide.all().size(), replicas, messages));
    }

    private static void say(PrintWriter out, String line) {
        out.println(line);
        out.flush();
    }
}
