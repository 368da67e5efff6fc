package io.riptide.proxy;

import io.riptide.proxy.accesslog.AccessLog;
import io.riptide.proxy.tls.Interception;
import io.riptide.proxy.upstream.OriginAdmission;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;

/**
 * How the browser proxy listens, limits what it accepts, talks to origins and decides what to look up.
 *
 * @param host the address to listen on (loopback by default: the proxy serves this machine's browser)
 * @param port the port to listen on; 0 picks a free one
 * @param passThrough never look anything up: every request goes to its origin (measures the proxy's own overhead)
 * @param maxRequestLineBytes the longest request line accepted (longer: 414)
 * @param maxHeaderBytes the most header bytes accepted (more: 431)
 * @param maxRequestBodyBytes the largest request body forwarded (larger: 413)
 * @param connectTimeout how long to wait for a connection to an origin or tunnel target (then 504)
 * @param responseTimeout how long to wait for an origin's response head once the request is sent (then 504)
 * @param idleTimeout how long a connection, browser-side or origin-side, may carry no traffic before it is closed
 * @param requestHeadTimeout how long a browser may take over a request's head once its first bytes arrived (then 408
 *     and the connection closes; see {@link #DEFAULT_REQUEST_HEAD_TIMEOUT})
 * @param maxConnections browser connections open at once, from all clients together; more get 503 (see
 *     {@link #defaultMaxConnections()})
 * @param maxConnectionsPerClient browser connections open at once from one client address; more get 503. Clients on the
 *     proxy's own host (connecting from the address they connect to, as a browser beside it does) are held to
 *     {@code maxConnections} only
 * @param upstreamConnectionsPerOrigin keep-alive connections per origin per event loop
 * @param via the pseudonym this proxy adds to {@code Via} and names itself by in {@code Cache-Status}
 * @param maxConcurrentLookups cache lookups in flight at once; beyond it requests go straight to the origin
 * @param cookiesBypass whether a request with a {@code Cookie} skips the cache
 * @param queryBypass whether a URL with a query string skips the cache (the paper's URL hint; off by
 *     default, since today many query URLs are static and say so in Cache-Control)
 * @param tunnelPorts the ports CONNECT may reach; empty allows every port
 * @param allowFrom the client networks served (loopback by default); a client elsewhere gets 403 on its first request
 * @param accessNodes the overlay access nodes in use, for the status page
 * @param loops the event loops serving browser connections (see {@link #defaultLoops()})
 * @param accessLog where each request is recorded ({@link AccessLog#NONE} by default; its owner closes it)
 * @param interception which CONNECT targets are intercepted, with which CA, trusting which origins
 *     ({@link Interception#OFF} by default: every CONNECT is a blind tunnel)
 * @param destinations which addresses origins and CONNECT targets may have ({@link DestinationPolicy#AUTO} by
 *     default: public ones only once {@code allowFrom} reaches beyond loopback)
 * @param originAdmission how requests wait for a busy origin's connections, and when they are shed with 503
 *     ({@link OriginAdmission#DEFAULT} unless told)
 */
public record ProxyConfig(
        String host,
        int port,
        boolean passThrough,
        int maxRequestLineBytes,
        int maxHeaderBytes,
        long maxRequestBodyBytes,
        Duration connectTimeout,
        Duration responseTimeout,
        Duration idleTimeout,
        Duration requestHeadTimeout,
        int maxConnections,
        int maxConnectionsPerClient,
        int upstreamConnectionsPerOrigin,
        String via,
        int maxConcurrentLookups,
        boolean cookiesBypass,
        boolean queryBypass,
        Set<Integer> tunnelPorts,
        List<Cidr> allowFrom,
        Supplier<List<String>> accessNodes,
        int loops,
        AccessLog accessLog,
        Interception interception,
        DestinationPolicy destinations,
        OriginAdmission originAdmission) {

    /**
     * The event loops unless told: one per core, as nginx's {@code worker_processes auto} (Netty's own
     * default of two per core only adds context switches for loops that never block). Measured with
     * {@code bench hit-throughput} on 2 cores, one loop kept up with closed-loop load (98k memory hits
     * a second) but fell behind the open-loop generator's hundreds of connections at 29k, where two did
     * not; so one per core, and {@code --loops} for a proxy that should leave more to the browser.
     */
    public static int defaultLoops() {
        return Math.max(1, Runtime.getRuntime().availableProcessors());
    }

    /**
     * The request-head deadline unless told: 10 s, the {@code timeout http-request} of HAProxy's stock
     * configurations (Red Hat's, for one), and shorter than Apache's {@code mod_reqtimeout} default
     * ({@code header=20-40}) and nginx's {@code client_header_timeout} (60 s). A browser sends a whole head
     * in one or two segments, so 10 s leaves room for several TCP retransmissions, yet a client trickling a
     * head byte by byte (slowloris) holds its connection for 10 s rather than indefinitely.
     */
    public static final Duration DEFAULT_REQUEST_HEAD_TIMEOUT = Duration.ofSeconds(10);

    /** Connections per client address unless told: well above a browser's (Chrome opens at most 32 to a proxy). */
    public static final int DEFAULT_MAX_CONNECTIONS_PER_CLIENT = 256;

    /** The most browser connections {@link #defaultMaxConnections()} allows, however many descriptors there are. */
    static final int MAX_DEFAULT_CONNECTIONS = 10_000;

    /**
     * Browser connections unless told, from this process's file-descriptor limit as HAProxy derives its
     * {@code maxconn}: each browser connection may need a second descriptor towards its origin or tunnel
     * target, and some are kept back for the overlay, the listener, logs and the disk tier (a quarter of
     * the limit, at most 256). So (limit - reserve) / 2, at most 10,000 (past that a laptop's or a lab's
     * proxy is under attack rather than busy, and each connection costs memory too); 10,000 where the
     * limit cannot be read.
     */
    public static int defaultMaxConnections() {
        return maxConnectionsFor(openFileLimit());
    }

    static int maxConnectionsFor(long openFileLimit) {
        if (openFileLimit <= 0) {
            return MAX_DEFAULT_CONNECTIONS;
        }
        long reserve = Math.min(256, openFileLimit / 4);
        return (int) Math.max(1, Math.min(MAX_DEFAULT_CONNECTIONS, (openFileLimit - reserve) / 2));
    }

    /** The process's descriptor limit, or -1 where the JVM does not say (not a Unix). */
    private static long openFileLimit() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.UnixOperatingSystemMXBean unix ? unix.getMaxFileDescriptorCount() : -1;
    }

    public ProxyConfig {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("the proxy needs a host to listen on");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is out of range");
        }
        if (maxRequestLineBytes <= 0 || maxHeaderBytes <= 0 || maxRequestBodyBytes < 0) {
            throw new IllegalArgumentException("size limits must be positive");
        }
        if (requestHeadTimeout == null || requestHeadTimeout.isNegative() || requestHeadTimeout.isZero()) {
            throw new IllegalArgumentException("the request-head timeout must be positive, not " + requestHeadTimeout);
        }
        if (maxConnections < 1 || maxConnectionsPerClient < 1) {
            throw new IllegalArgumentException("connection caps must be at least 1, not " + maxConnections + " and "
                    + maxConnectionsPerClient);
        }
        if (upstreamConnectionsPerOrigin <= 0 || maxConcurrentLookups < 0) {
            throw new IllegalArgumentException("connection and lookup bounds must be positive");
        }
        if (via == null || !via.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("the Via pseudonym must be a token, not " + via);
        }
        tunnelPorts = Set.copyOf(tunnelPorts);
        if (allowFrom == null || allowFrom.isEmpty()) {
            throw new IllegalArgumentException("the proxy needs at least one client network to serve");
        }
        allowFrom = List.copyOf(allowFrom);
        if (accessNodes == null) {
            accessNodes = List::of;
        }
        if (accessLog == null) {
            accessLog = AccessLog.NONE;
        }
        if (interception == null) {
            interception = Interception.OFF;
        }
        if (destinations == null) {
            destinations = DestinationPolicy.AUTO;
        }
        if (originAdmission == null) {
            originAdmission = OriginAdmission.DEFAULT;
        }
        if (loops < 1 || loops > 1024) {
            throw new IllegalArgumentException("the proxy needs 1 to 1024 event loops, not " + loops);
        }
    }

    /** The defaults: 127.0.0.1:3128, clients on loopback only, caching, CONNECT to 443 and 8443 only. */
    public static ProxyConfig defaults() {
        return builder().build();
    }

    /** A builder starting from the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder starting from this configuration. */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.host = host;
        b.port = port;
        b.passThrough = passThrough;
        b.maxRequestLineBytes = maxRequestLineBytes;
        b.maxHeaderBytes = maxHeaderBytes;
        b.maxRequestBodyBytes = maxRequestBodyBytes;
        b.connectTimeout = connectTimeout;
        b.responseTimeout = responseTimeout;
        b.idleTimeout = idleTimeout;
        b.requestHeadTimeout = requestHeadTimeout;
        b.maxConnections = maxConnections;
        b.maxConnectionsPerClient = maxConnectionsPerClient;
        b.upstreamConnectionsPerOrigin = upstreamConnectionsPerOrigin;
        b.via = via;
        b.maxConcurrentLookups = maxConcurrentLookups;
        b.cookiesBypass = cookiesBypass;
        b.queryBypass = queryBypass;
        b.tunnelPorts = tunnelPorts;
        b.allowFrom = allowFrom;
        b.accessNodes = accessNodes;
        b.loops = loops;
        b.accessLog = accessLog;
        b.interception = interception;
        b.destinations = destinations;
        b.originAdmission = originAdmission;
        return b;
    }

    /** Whether CONNECT may open a tunnel to {@code targetPort}. */
    public boolean tunnelAllowed(int targetPort) {
        return tunnelPorts.isEmpty() || tunnelPorts.contains(targetPort);
    }

    /** Null if the proxy may connect to {@code address} for a client, else what kind of address it is. */
    public String destinationRefusal(InetAddress address) {
        return destinations.enforced(allowFrom) ? destinations.refusal(address) : null;
    }

    /** Whether a client at {@code client} may use the proxy (its pages included). */
    public boolean clientAllowed(InetAddress client) {
        return Cidr.anyContains(allowFrom, client);
    }

    /** Builds a {@link ProxyConfig}; every field starts at its default. */
    public static final class Builder {
        private String host = "127.0.0.1";
        private int port = 3128;
        private boolean passThrough;
        private int maxRequestLineBytes = 8 * 1024;
        private int maxHeaderBytes = 64 * 1024;
        private long maxRequestBodyBytes = 64L * 1024 * 1024;
        private Duration connectTimeout = Duration.ofSeconds(5);
        private Duration responseTimeout = Duration.ofSeconds(30);
        private Duration idleTimeout = Duration.ofSeconds(60);
        private Duration requestHeadTimeout = DEFAULT_REQUEST_HEAD_TIMEOUT;
        private int maxConnections = defaultMaxConnections();
        private int maxConnectionsPerClient = DEFAULT_MAX_CONNECTIONS_PER_CLIENT;
        private int upstreamConnectionsPerOrigin = 8;
        private String via = "riptide";
        private int maxConcurrentLookups = 1024;
        private boolean cookiesBypass = true;
        private boolean queryBypass;
        private Set<Integer> tunnelPorts = Set.of(443, 8443);
        private List<Cidr> allowFrom = Cidr.LOOPBACK;
        private Supplier<List<String>> accessNodes = List::of;
        private int loops = defaultLoops();
        private AccessLog accessLog = AccessLog.NONE;
        private Interception interception = Interception.OFF;
        private DestinationPolicy destinations = DestinationPolicy.AUTO;
        private OriginAdmission originAdmission = OriginAdmission.DEFAULT;

        private Builder() {
        }

        public Builder host(String v) { host = v; return this; }
        public Builder port(int v) { port = v; return this; }
        public Builder passThrough(boolean v) { passThrough = v; return this; }
        public Builder maxRequestLineBytes(int v) { maxRequestLineBytes = v; return this; }
        public Builder maxHeaderBytes(int v) { maxHeaderBytes = v; return this; }
        public Builder maxRequestBodyBytes(long v) { maxRequestBodyBytes = v; return this; }
        public Builder connectTimeout(Duration v) { connectTimeout = v; return this; }
        public Builder responseTimeout(Duration v) { responseTimeout = v; return this; }
        public Builder idleTimeout(Duration v) { idleTimeout = v; return this; }
        public Builder requestHeadTimeout(Duration v) { requestHeadTimeout = v; return this; }
        public Builder maxConnections(int v) { maxConnections = v; return this; }
        public Builder maxConnectionsPerClient(int v) { maxConnectionsPerClient = v; return this; }
        public Builder upstreamConnectionsPerOrigin(int v) { upstreamConnectionsPerOrigin = v; return this; }
        public Builder via(String v) { via = v; return this; }
        public Builder maxConcurrentLookups(int v) { maxConcurrentLookups = v; return this; }
        public Builder cookiesBypass(boolean v) { cookiesBypass = v; return this; }
        public Builder queryBypass(boolean v) { queryBypass = v; return this; }
        public Builder tunnelPorts(Set<Integer> v) { tunnelPorts = v; return this; }
        public Builder allowFrom(List<Cidr> v) { allowFrom = v; return this; }
        public Builder accessNodes(Supplier<List<String>> v) { accessNodes = v; return this; }
        public Builder loops(int v) { loops = v; return this; }
        public Builder accessLog(AccessLog v) { accessLog = v; return this; }
        public Builder interception(Interception v) { interception = v; return this; }
        public Builder destinations(DestinationPolicy v) { destinations = v; return this; }
        public Builder originAdmission(OriginAdmission v) { originAdmission = v; return this; }

        public ProxyConfig build() {
            return new ProxyConfig(host, port, passThrough, maxRequestLineBytes, maxHeaderBytes, maxRequestBodyBytes,
                    connectTimeout, responseTimeout, idleTimeout, requestHeadTimeout, maxConnections, maxConnectionsPerClient,
                    upstreamConnectionsPerOrigin, via,
                    maxConcurrentLookups, cookiesBypass, queryBypass, tunnelPorts, allowFrom, accessNodes, loops, accessLog,
                    interception, destinations, originAdmission);
        }
    }
}
