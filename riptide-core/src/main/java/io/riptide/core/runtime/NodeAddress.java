package io.riptide.core.runtime;

/** Where a node listens: a host and port for TCP, or a simulated host named by its topology vertex. */
public record NodeAddress(String host, int port) {
    /** Host name used for nodes of the simulated network; the port is the topology vertex. */
    public static final String SIMULATED_HOST = "sim";

    public NodeAddress {
        if (host == null || host.isEmpty()) {
            throw new IllegalArgumentException("host must not be empty");
        }
        if (port < 0 || port > 0xffff && !SIMULATED_HOST.equals(host)) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
    }

    /** The address of simulated vertex {@code vertex}. */
    public static NodeAddress simulated(int vertex) {
        return new NodeAddress(SIMULATED_HOST, vertex);
    }

    /** Parses {@code host:port}, as given on command lines. */
    public static NodeAddress parse(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0 || colon == hostPort.length() - 1) {
            throw new IllegalArgumentException("expected HOST:PORT, got '" + hostPort + "'");
        }
        String host = hostPort.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(hostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("port is not a number in '" + hostPort + "'");
        }
        return new NodeAddress(host, port);
    }

    @Override
    public String toString() {
        return host.indexOf(':') >= 0 ? "[" + host + "]:" + port : host + ":" + port;
    }
}
