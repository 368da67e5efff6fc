package io.riptide.cli;

import io.riptide.cli.errors.CommandFailure;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.dolr.server.ServerSettings;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The options every command that runs an overlay node shares: where it listens, whom it joins, how often it reports. */
final class OverlayOptions {
    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    @Option(names = "--port", paramLabel = "P", required = true,
            description = "TCP port to listen on; 0 picks a free one, which is printed (required).")
    private int port;

    @Option(names = "--host", paramLabel = "H", defaultValue = "127.0.0.1",
            description = "Address to listen on, and the address peers are told to use (default: ${DEFAULT-VALUE}).")
    private String host;

    @Option(names = "--join", paramLabel = "HOST:PORT",
            description = "A member of the overlay to join through (default: start a new overlay).")
    private String join;

    @Option(names = "--status-every", paramLabel = "DURATION", defaultValue = "10s", converter = DurationConverter.class,
            description = "How often to print a status line, e.g. 500ms, 10s, 2m (default: ${DEFAULT-VALUE}).")
    private Duration statusEvery;

    @Option(names = "--join-timeout", paramLabel = "DURATION", defaultValue = "30s", converter = DurationConverter.class,
            description = "How long --join may take before the command gives up with exit code 1 (default: ${DEFAULT-VALUE}).")
    private Duration joinTimeout;

    /** The address to listen on; a usage error if the port, the host or a period is bad. */
    NodeAddress listen() {
        statusEvery();
        joinTimeout();
        if (port < 0 || port > 0xffff) {
            throw new ParameterException(spec.commandLine(), "--port must be between 0 and 65535, got " + port);
        }
        requireResolvable(host, "--host");
        return new NodeAddress(host, port);
    }

    /** The member to join through, or null to start a new overlay; a usage error if malformed. */
    NodeAddress bootstrap() {
        if (join == null) {
            return null;
        }
        NodeAddress address;
        try {
            address = NodeAddress.parse(join);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--join: " + e.getMessage());
        }
        if (address.port() == 0) {
            throw new ParameterException(spec.commandLine(), "--join: port 0 is not a node's port, in '" + join + "'");
        }
        requireResolvable(address.host(), "--join");
        return address;
    }

    /** The status period; a usage error if not positive. */
    Duration statusEvery() {
        if (statusEvery.isZero() || statusEvery.isNegative()) {
            throw new ParameterException(spec.commandLine(), "--status-every must be longer than zero");
        }
        return statusEvery;
    }

    /** How long to wait for the join; a usage error if not positive. */
    Duration joinTimeout() {
        if (joinTimeout.isZero() || joinTimeout.isNegative()) {
            throw new ParameterException(spec.commandLine(), "--join-timeout must be longer than zero");
        }
        return joinTimeout;
    }

    /** Starts the node, turning a port in use or a foreign address into a message that says what to do. */
    OverlayServer start(ServerSettings settings) {
        try {
            return OverlayServer.start(settings);
        } catch (RuntimeException e) {
            throw CommandFailure.listening(e, host, port, "--port", "--host");
        }
    }

    private void requireResolvable(String name, String option) {
        try {
            InetAddress.getByName(name);
        } catch (UnknownHostException e) {
            throw new ParameterException(spec.commandLine(), option + ": unknown host '" + name
                    + "': give an IP address, or a name this machine can resolve");
        }
    }
}
