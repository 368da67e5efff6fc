package io.riptide.proxy;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.proxy.cache.InsertPolicy;
import io.riptide.proxy.cache.OverlayCacheConfig;
import io.riptide.proxy.tls.Interception;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import io.riptide.proxy.accesslog.AccessLog;
import io.riptide.proxy.accesslog.AccessLogFormat;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code java -jar riptide-browser-proxy.jar} and {@code riptide proxy}: the browser proxy a user
 * runs next to their browser, reading the cache through the overlay.
 */
@Command(name = "proxy", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs the browser proxy: the HTTP proxy a browser uses to read the cache.",
            "It serves cached web objects from the overlay (verified against the provider's key) and everything "
            + "else from the origin. Point the browser at http://HOST:PORT/proxy.pac. Stop it with Ctrl-C."},
        footerHeading = "%nExample:%n",
        footer = {"  riptide proxy --seed 10.0.0.1:7101 --provider ed25519:BASE64",
            "  then point the browser at http://127.0.0.1:3128/proxy.pac"})
public final class ProxyMain implements Callable<Integer> {
    // Longer, and every page behind a dead access node would hang for it before the origin is asked.
    private static final Duration MAX_READ_DEADLINE = Duration.ofMinutes(1);
    /** Bounds that catch typos: below 100 ms a head sent in two segments may miss it; past 10 minutes it limits nothing. */
    private static final Duration MIN_REQUEST_HEAD_TIMEOUT = Duration.ofMillis(100);
    private static final Duration MAX_REQUEST_HEAD_TIMEOUT = Duration.ofMinutes(10);
    /** A million connections would be a typo: each costs a descriptor and memory. */
    private static final int MAX_CONNECTIONS = 1_000_000;
    /** The most memory the tier may take: 1 TB would be a typo, not a proxy. */
    private static final long MAX_MEMORY_MB = 1024L * 1024;

    @Spec
    private CommandSpec spec;

    @Option(names = "--host", paramLabel = "H", defaultValue = "127.0.0.1",
            description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    private String host;

    @Option(names = "--port", paramLabel = "P", defaultValue = "3128", description = "Port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    private int port;

    @Option(names = "--seed", paramLabel = "HOST:PORT",
            description = "An overlay node to start from; repeatable (default: none, and every request goes to the origin).")
    private List<String> seeds = new ArrayList<>();

    @Mixin
    private DiscoveryOptions discovery;

    @Option(names = "--provider", paramLabel = "KEY",
            description = "A provider whose objects to trust: a key file, or its public key as ed25519:BASE64 "
                + "as `riptide gateway` prints it; repeatable, and the first is the primary, whose cache managers "
                + "and gateways get the proxy's hints (default: none; needed with --seed).")
    private List<String> providers = new ArrayList<>();

    @Option(names = "--ttl", paramLabel = "HOPS", defaultValue = "8",
            description = "Hop budget of an overlay read before the origin is used (default: ${DEFAULT-VALUE}).")
    private int ttl;

    @Option(names = "--read-deadline", paramLabel = "DURATION", defaultValue = "3s", converter = DurationText.class,
            description = "How long an overlay read may wait for its access node before the origin is used and that node "
                + "is dropped, as 500ms, 3s, ... (default: ${DEFAULT-VALUE}).")
    private Duration readDeadline;

    @Option(names = "--memory-mb", paramLabel = "MB", defaultValue = "256",
            description = "Copies kept in this process, in MB, bodies off the Java heap: verified ones and (see "
                + "--keep-own-fetches) its own fetches; a hot URL is then answered without an overlay read; 0 turns the "
                + "memory tier off (default: ${DEFAULT-VALUE}).")
    private long memoryMb;

    @Option(names = "--keep-own-fetches", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Keep what this proxy fetches from origins itself in its memory tier (private to it, never "
                + "offered to the overlay), so a repeat is a hit at once; --no-keep-own-fetches keeps verified copies only "
                + "(default: ${DEFAULT-VALUE}).")
    private boolean keepOwnFetches;

    @Option(names = "--insert-policy", paramLabel = "POLICY", defaultValue = "second-sight",
            description = "When a miss asks the provider's gateway to insert the URL into the overlay: second-sight (when "
                + "this proxy, or the stub's cache manager, sees it again; the insert is an origin fetch of its own), "
                + "second-sight-through-gateway (the stub's second sighting is fetched by the gateway, whose one fetch "
                + "answers it and inserts it), through-gateway (every miss fetched by the gateway) or first-miss (every "
                + "storable miss, as the paper's proxies) (default: ${DEFAULT-VALUE}).")
    private String insertPolicy;

    @Option(names = "--loops", paramLabel = "N",
            description = "Event loops serving browsers; fewer leave more of the machine to the browser "
                + "(default: one per core).")
    private Integer loops;

    @Option(names = "--access-log", paramLabel = "FILE",
            description = "Append one line per request to FILE, written off the request path (default: none).")
    private Path accessLog;

    @Option(names = "--access-log-format", paramLabel = "FORMAT", defaultValue = "squid",
            description = "squid (Squid's native access.log format, read by its log tools) or json (JSON lines, with the "
                + "Cache-Status as sent) (default: ${DEFAULT-VALUE}).")
    private String accessLogFormat;

    @Option(names = "--allow-from", paramLabel = "CIDR", converter = CidrText.class,
            description = "A client network the proxy serves, as 10.0.0.0/8, 2001:db8::/32 or one address; repeatable. Clients "
                + "elsewhere get 403, the PAC file and status pages included (default: 127.0.0.0/8 and ::1, this machine only).")
    private List<Cidr> allowFrom = new ArrayList<>();

    @Option(names = "--request-head-timeout", paramLabel = "DURATION", defaultValue = "10s", converter = DurationText.class,
            description = "How long a client may take to send a request's head (request line and header fields) once its first "
                + "bytes arrived; a slower one gets 408 and its connection closes, so trickled heads cannot hold connections "
                + "open (default: ${DEFAULT-VALUE}).")
    private Duration requestHeadTimeout;

    @Option(names = "--max-connections", paramLabel = "N",
            description = "Client connections open at once, from all clients; more are answered 503 with Retry-After and "
                + "closed (default: half the process's open-file limit less a reserve, at most 10000).")
    private Integer maxConnections;

    @Option(names = "--max-connections-per-client", paramLabel = "N", defaultValue = "256",
            description = "Client connections open at once from one address; more are answered 503 and closed. Clients on "
                + "this host itself (a browser beside the proxy) are held to --max-connections only (default: ${DEFAULT-VALUE}).")
    private int maxConnectionsPerClient;

    @Option(names = "--destinations", paramLabel = "RULE", defaultValue = "auto", converter = DestinationRuleText.class,
            description = "Which addresses the proxy connects to for its clients: public (public internet addresses only, plus "
                + "--allow-destination: never this host's loopback, the private network or the cloud metadata service), any, "
                + "or auto (public once --allow-from reaches beyond this machine, any while it serves loopback only) "
                + "(default: ${DEFAULT-VALUE}).")
    private DestinationPolicy.Mode destinations;

    @Option(names = "--allow-destination", paramLabel = "CIDR", converter = DestinationCidrText.class,
            description = "A non-public network the proxy may still reach when --destinations keeps it to public ones (an "
                + "intranet's web servers), as 10.1.0.0/16 or one address; repeatable (default: none).")
    private List<Cidr> allowDestinations = new ArrayList<>();

    @Option(names = "--pass-through", description = "Never look anything up: measures the proxy's own overhead (default: off).")
    private boolean passThrough;

    @Option(names = "--bypass-queries",
            description = "Send every URL with a query string (?a=b) straight to the origin, never looking it up "
                + "(default: off: such URLs are looked up like any other, and the origin's Cache-Control decides).")
    private boolean bypassQueries;

    @Option(names = "--intercept", paramLabel = "HOSTS",
            description = "Intercept HTTPS to these hosts: a comma-separated list of names (example.org), domains (*.example.org) "
                + "and IP addresses, or all. Their CONNECTs are answered with a certificate of the local CA (--ca-dir; the browser "
                + "must trust it), the origin's own certificate is verified, and their https:// URLs are cached like http:// ones. "
                + "Other hosts are tunnelled untouched (default: none).")
    private List<String> intercept = new ArrayList<>();

    @Option(names = "--ca-dir", paramLabel = "DIR",
            description = "The local CA that signs intercepted hosts' certificates, as `riptide ca init` made it "
                + "(default: ~/.riptide/ca).")
    private Path caDir;

    @Option(names = "--origin-ca", paramLabel = "FILE",
            description = "Also trust the CA certificates in this PEM file when verifying intercepted origins, besides the system "
                + "trust store: for an internal CA, or a test origin of your own; repeatable (default: the system trust store alone).")
    private List<Path> originTrust = new ArrayList<>();

    public static void main(String[] args) {
        System.exit(new CommandLine(new ProxyMain()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        if (port < 0 || port > 0xffff) {
            throw new ParameterException(spec.commandLine(), "--port must be between 0 and 65535, got " + port);
        }
        if (ttl < 1 || ttl > 64) {
            throw new ParameterException(spec.commandLine(), "--ttl must be between 1 and 64, got " + ttl);
        }
        if (readDeadline.compareTo(Duration.ofMillis(1)) < 0 || readDeadline.compareTo(MAX_READ_DEADLINE) > 0) {
            throw new ParameterException(spec.commandLine(), "--read-deadline must be between 1ms and 1m, got "
                    + DurationText.format(readDeadline));
        }
        if (requestHeadTimeout.compareTo(MIN_REQUEST_HEAD_TIMEOUT) < 0 || requestHeadTimeout.compareTo(MAX_REQUEST_HEAD_TIMEOUT) > 0) {
            throw new ParameterException(spec.commandLine(), "--request-head-timeout must be between 100ms and 10m, got "
                    + DurationText.format(requestHeadTimeout));
        }
        if (maxConnections != null && (maxConnections < 1 || maxConnections > MAX_CONNECTIONS)) {
            throw new ParameterException(spec.commandLine(), "--max-connections must be between 1 and " + MAX_CONNECTIONS
                    + ", got " + maxConnections);
        }
        if (maxConnectionsPerClient < 1 || maxConnectionsPerClient > MAX_CONNECTIONS) {
            throw new ParameterException(spec.commandLine(), "--max-connections-per-client must be between 1 and "
                    + MAX_CONNECTIONS + ", got " + maxConnectionsPerClient);
        }
        if (loops != null && (loops < 1 || loops > 1024)) {
            throw new ParameterException(spec.commandLine(), "--loops must be between 1 and 1024, got " + loops);
        }
        AccessLogFormat format;
        try {
            format = AccessLogFormat.parse(accessLogFormat);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--access-log-format: " + e.getMessage());
        }
        AccessLog log;
        try {
            log = accessLog == null ? AccessLog.NONE : AccessLog.toFile(accessLog, format);
        } catch (java.io.UncheckedIOException e) {
            throw new ParameterException(spec.commandLine(), "--access-log: " + e.getMessage());
        }
        if (memoryMb < 0 || memoryMb > MAX_MEMORY_MB) {
            throw new ParameterException(spec.commandLine(), "--memory-mb must be between 0 and " + MAX_MEMORY_MB + ", got " + memoryMb);
        }
        List<NodeAddress> seedAddresses = new ArrayList<>();
        for (String s : seeds) {
            try {
                seedAddresses.add(NodeAddress.parse(s));
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--seed: " + e.getMessage());
            }
        }
        List<PublicKey> trusted = new ArrayList<>();
        for (String p : providers) {
            PublicKey key = providerKey(p);
            if (trusted.contains(key)) {
                throw new ParameterException(spec.commandLine(), "--provider: " + p + " is given twice");
            }
            trusted.add(key);
        }
        if (!seedAddresses.isEmpty() && trusted.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "--seed needs --provider: whose objects should the proxy trust?");
        }
        // Discovery may add an announced provider only when none is configured (--trust-announced-provider).
        DiscoveryOptions.Found found = discovery.find(seedAddresses, trusted.isEmpty() ? null : trusted.get(0), out);
        seedAddresses = found.seeds();
        if (trusted.isEmpty() && found.provider() != null) {
            trusted.add(found.provider());
        }
        OverlayCacheConfig cacheConfig = OverlayCacheConfig.defaults();
        InsertPolicy policy;
        try {
            policy = InsertPolicy.parse(insertPolicy);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--insert-policy: " + e.getMessage());
        }
        cacheConfig = cacheConfig.withTtl(ttl).withReadDeadline(readDeadline)
                .withMemory(memoryMb * 1024 * 1024, cacheConfig.memoryRecheck()).withInsertPolicy(policy)
                .withKeepOwnFetches(keepOwnFetches);
        Interception interception = interception();
        ProxyConfig config = proxyConfig().toBuilder().accessLog(log).interception(interception).build();
        // While listening, announced seeds come through feed() (and go when withdrawn), and the client
        // listens on the mDNS interface, where nodes found later will answer it.
        RiptideProxy proxy = discovery.listening()
                ? RiptideProxy.start(config, found.fixed(), trusted, cacheConfig, true, discovery.clientAddress(found.fixed()))
                : RiptideProxy.start(config, seedAddresses, trusted, cacheConfig, false);
        discovery.feed(proxy);
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            discovery.close();
            proxy.close();
            log.close();
            say(out, "proxy stopped");
            stopped.countDown();
        }, "riptide-proxy-shutdown"));
        var a = proxy.server().address();
        say(out, String.format("riptide browser proxy on http://%s:%d/ (PAC: http://%s:%d/proxy.pac, status: http://%s:%d/status)%s",
                a.getHostString(), a.getPort(), a.getHostString(), a.getPort(), a.getHostString(), a.getPort(),
                passThrough ? ", pass-through" : ""));
        if (interception.on()) {
            say(out, "intercepting HTTPS for " + interception.policy() + " with the local CA " + interception.ca().certificateFile()
                    + " (browsers must trust it: see `riptide ca init`); origins verified against " + interception.trustDescription());
        }
        String clients = config.allowFrom().stream().map(Cidr::toString).collect(Collectors.joining(", "));
        if (!a.getAddress().isLoopbackAddress() && allowFrom.isEmpty()) {
            say(out, "serving clients in " + clients + " only: other machines get 403 until their networks are added with --allow-from");
        } else if (!allowFrom.isEmpty()) {
            say(out, "serving clients in " + clients);
        }
        if (config.destinations().enforced(config.allowFrom())) {
            say(out, "connecting to public addresses only" + (allowDestinations.isEmpty() ? "" : " and "
                    + allowDestinations.stream().map(Cidr::toString).collect(Collectors.joining(", ")))
                    + " for clients (--destinations " + destinations.name().toLowerCase(Locale.ROOT)
                    + "; allow an intranet with --allow-destination)");
        }
        if (discovery.listening()) {
            proxy.clientAddress().ifPresent(c -> say(out, "overlay client listening on " + c
                    + " (on the mDNS interface, where nodes found later answer it)"));
        }
        if (!proxy.hasOverlay()) {
            say(out, "no overlay behind it: every request goes to the origin");
        } else if (proxy.awaitAttached(Duration.ofSeconds(10))) {
            say(out, "reading the cache through the overlay via " + seedAddresses + ", waiting at most "
                    + DurationText.format(readDeadline) + " for a read");
        } else {
            say(out, "no overlay node answered yet; requests go to the origin until one does");
        }
        stopped.await();
        return 0;
    }

    /** The front's configuration as the options (and a config file) give it, once they are parsed. */
    public ProxyConfig proxyConfig() {
        return ProxyConfig.builder().host(host).port(port).passThrough(passThrough).queryBypass(bypassQueries)
                .allowFrom(allowFrom.isEmpty() ? Cidr.LOOPBACK : allowFrom)
                .requestHeadTimeout(requestHeadTimeout)
                .maxConnections(maxConnections == null ? ProxyConfig.defaultMaxConnections() : maxConnections)
                .maxConnectionsPerClient(maxConnectionsPerClient)
                .destinations(new DestinationPolicy(destinations, allowDestinations))
                .loops(loops == null ? ProxyConfig.defaultLoops() : loops).build();
    }

    /** HTTPS interception as {@code --intercept}, {@code --ca-dir} and {@code --origin-ca} ask; refused with what to do. */
    private Interception interception() {
        try {
            return Interception.fromOptions(intercept, caDir, originTrust);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    private PublicKey providerKey(String text) {
        if (text.startsWith("ed25519:")) {
            try {
                return PublicKey.parse(text);
            } catch (IllegalArgumentException e) {
                throw new ParameterException(spec.commandLine(), "--provider: " + e.getMessage());
            }
        }
        if (!Files.exists(Path.of(text))) {
            throw new ParameterException(spec.commandLine(), "--provider: no key file at " + text
                    + ": give the provider's public key as ed25519:BASE64 (as its gateway prints it), or check the path");
        }
        try {
            return SigningKey.load(Path.of(text)).publicKey();
        } catch (IOException e) {
            throw new ParameterException(spec.commandLine(), "--provider: cannot read the key: " + e.getMessage());
        }
    }

    private static void say(PrintWriter out, String line) {
        out.println(line);
        out.flush();
    }

    /** Client networks as {@link Cidr#parse} reads them, refused with its message. */
    static class CidrText implements ITypeConverter<Cidr> {
        /** The option whose value this reads, for the refusal of a list. */
        String option() {
            return "--allow-from";
        }

        @Override
        public Cidr convert(String value) {
            if (value.contains(",")) {
                // As with --seed, a list is the option repeated (a config file's commas are split before this).
                throw new TypeConversionException("one network per " + option() + ", repeated for more "
                        + "(" + option() + " 10.0.0.0/8 " + option() + " 192.168.0.0/16), got '" + value + "'");
            }
            try {
                return Cidr.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** The destination rule as {@link DestinationPolicy.Mode#parse} reads it, refused with the choices. */
    static final class DestinationRuleText implements ITypeConverter<DestinationPolicy.Mode> {
        @Override
        public DestinationPolicy.Mode convert(String value) {
            try {
                return DestinationPolicy.Mode.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    /** Destination networks, read as client networks are. */
    static final class DestinationCidrText extends CidrText {
        @Override
        String option() {
            return "--allow-destination";
        }
    }

    /**
     * Durations as people type them ({@code 500ms}, {@code 3s}, {@code 2m}, {@code 1h}), read as the other
     * {@code riptide} commands read them; kept here because the proxy's own jar runs without the cli module.
     */
    static final class DurationText implements ITypeConverter<Duration> {
        private static final Pattern FORM = Pattern.compile("(\\d{1,12})(ms|s|m|h)?");

        @Override
        public Duration convert(String value) {
            Matcher m = FORM.matcher(value.strip());
            if (!m.matches()) {
                throw new TypeConversionException("expected a duration such as 500ms, 10s, 2m or 1h, got '" + value + "'");
            }
            long n = Long.parseLong(m.group(1));
            return switch (m.group(2) == null ? "s" : m.group(2)) {
                case "ms" -> Duration.ofMillis(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                default -> Duration.ofSeconds(n);
            };
        }

        /** The duration as a person would type it back: {@code 200ms}, {@code 3s}. */
        static String format(Duration d) {
            return d.toMillis() % 1000 != 0 || d.isZero() ? d.toMillis() + "ms" : d.toSeconds() + "s";
        }
    }
}
