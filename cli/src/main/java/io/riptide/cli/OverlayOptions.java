package io.riptide.cli;

import io.riptide.cli.errors.CommandFailure;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.store.disk.DiskPolicy;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.dolr.server.ServerSettings;
import io.riptide.dolr.store.StoreSettings;
import io.riptide.dolr.store.StoreUnavailableException;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.location.SaltedRoots;
import io.riptide.dolr.secure.SourceLimits;
import io.riptide.dolr.transport.TransportConfig;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The options every command that runs an overlay node shares: where it listens, whom it joins, how
 * often it reports, where it keeps its replicas, and how many peers may be mid-handshake at once.
 */
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

    @Option(names = "--store", paramLabel = "DIR",
            description = "Keep replicas on disk in DIR (created if missing), with a memory tier for hot objects; "
                    + "a restart with the same DIR brings them back (default: in memory only, lost on exit).")
    private Path store;

    @Option(names = "--disk-gb", paramLabel = "N",
            description = "Size of the disk tier's file in GB, e.g. 100 or 0.5; needs --store (default: 10).")
    private Double diskGb;

    @Option(names = "--memory-mb", paramLabel = "M",
            description = "Size of the memory tier in front of the disk, in MB; needs --store (default: 256).")
    private Long memoryMb;

    @Option(names = "--store-policy", paramLabel = "POLICY",
            description = "The disk tier's layout: log (a circular log, objects up to 4 MiB) or setmem "
                    + "(a disk table of 64 KiB slots, objects up to that); needs --store (default: log).")
    private String storePolicy;

    @Option(names = "--max-unauthenticated-per-source", paramLabel = "N",
            defaultValue = "" + TransportConfig.DEFAULT_MAX_UNAUTHENTICATED_PER_SOURCE,
            description = "Most peer connections from one address (other than this host's) that may be open before their "
                    + "peer has proved its key; one more is closed before anything is read from it (default: ${DEFAULT-VALUE}).")
    private int maxUnauthenticatedPerSource;

    @Option(names = "--max-unauthenticated", paramLabel = "N", defaultValue = "" + TransportConfig.DEFAULT_MAX_UNAUTHENTICATED,
            description = "Most peer connections in all that may be open before their peer has proved its key; "
                    + "one more is closed before anything is read from it (default: ${DEFAULT-VALUE}).")
    private int maxUnauthenticated;

    @Option(names = "--max-ids-per-source", paramLabel = "N", defaultValue = "" + SourceLimits.DEFAULT_IDS_PER_SOURCE,
            description = "Most node IDs from one source address (see --source-prefix-v4, --source-prefix-v6) this node "
                    + "keeps in its routing table and leaf set; one more is refused. Raise it where more honest nodes "
                    + "share one address, behind one NAT (default: ${DEFAULT-VALUE}).")
    private int maxIdsPerSource;

    @Option(names = "--source-prefix-v4", paramLabel = "BITS", defaultValue = "" + SourceLimits.DEFAULT_IPV4_PREFIX_BITS,
            description = "Leading bits of an IPv4 address that name its source for --max-ids-per-source, 1-32 "
                    + "(default: ${DEFAULT-VALUE}, one address).")
    private int sourcePrefixV4;

    @Option(names = "--source-prefix-v6", paramLabel = "BITS", defaultValue = "" + SourceLimits.DEFAULT_IPV6_PREFIX_BITS,
            description = "Leading bits of an IPv6 address that name its source for --max-ids-per-source, 1-128 "
                    + "(default: ${DEFAULT-VALUE}, the /64 a host is usually given).")
    private int sourcePrefixV6;

    @Option(names = "--salted-roots", paramLabel = "N", defaultValue = "0",
            description = "Further roots of each object (0-" + SaltedRoots.MAX + ") that this node's publishes also reach "
                    + "and where its reads look when the plain read fails, lies or is late; a node with it reads "
                    + "verified for its clients (the provider's signature checked before a copy is relayed). For an "
                    + "overlay that admits nodes it does not trust; every node the same; 4 is what was measured "
                    + "(default: ${DEFAULT-VALUE}, the object's own root only).")
    private int saltedRoots;

    @Option(names = "--accept-unproved-addresses",
            description = "Take a peer's advertised address on its word: do not refuse a peer that connects from "
                    + "another IP address than it advertises (or advertises another than it was dialed at). Only where "
                    + "honest nodes connect out from another address than they listen on (default: off).")
    private boolean acceptUnprovedAddresses;

    /** The address to listen on; a usage error if the port, the host, a period, a store option or a cap is bad. */
    NodeAddress listen() {
        statusEvery();
        joinTimeout();
        store();
        transport(TransportConfig.defaults());
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

    /**
     * The disk store the options describe, or null to keep replicas in memory; a usage error naming the
     * option if a value is bad, or if a size or policy is given without {@code --store}.
     */
    StoreSettings store() {
        if (store == null) {
            for (String given : new String[] {diskGb != null ? "--disk-gb" : null, memoryMb != null ? "--memory-mb" : null,
                    storePolicy != null ? "--store-policy" : null}) {
                if (given != null) {
                    throw new ParameterException(spec.commandLine(), given + " configures the disk store: give --store DIR too");
                }
            }
            return null;
        }
        double gb = diskGb == null ? 10 : diskGb;
        long diskBytes = (long) (gb * (1L << 30));
        if (!(gb > 0) || Double.isInfinite(gb) || diskBytes < StoreSettings.MIN_DISK_BYTES) {
            throw new ParameterException(spec.commandLine(), "--disk-gb must be at least "
                    + (double) StoreSettings.MIN_DISK_BYTES / (1L << 30) + " (32 MiB), got " + diskGb);
        }
        long mb = memoryMb == null ? 256 : memoryMb;
        if (mb < 1 || mb > (1L << 40)) {
            throw new ParameterException(spec.commandLine(), "--memory-mb must be at least 1, got " + memoryMb);
        }
        DiskPolicy policy;
        String p = storePolicy == null ? "log" : storePolicy.toLowerCase(Locale.ROOT);
        switch (p) {
            case "log" -> policy = DiskPolicy.LOG;
            case "setmem" -> policy = DiskPolicy.SETMEM;
            default -> throw new ParameterException(spec.commandLine(),
                    "--store-policy must be log or setmem, got '" + storePolicy + "'");
        }
        if (Files.exists(store) && !Files.isDirectory(store)) {
            throw new ParameterException(spec.commandLine(), "--store: " + store + " is a file, not a directory");
        }
        return new StoreSettings(store, diskBytes, mb << 20, policy);
    }

    /** {@code config} with the caps on unauthenticated connections given; a usage error if they are bad. */
    TransportConfig transport(TransportConfig config) {
        if (maxUnauthenticatedPerSource < 1) {
            throw new ParameterException(spec.commandLine(),
                    "--max-unauthenticated-per-source must be at least 1, got " + maxUnauthenticatedPerSource);
        }
        if (maxUnauthenticated < maxUnauthenticatedPerSource) {
            throw new ParameterException(spec.commandLine(), "--max-unauthenticated must be at least "
                    + "--max-unauthenticated-per-source (" + maxUnauthenticatedPerSource + "), got " + maxUnauthenticated);
        }
        return config.withMaxUnauthenticated(maxUnauthenticatedPerSource, maxUnauthenticated)
                .withAdvertisedAddressCheck(!acceptUnprovedAddresses);
    }

    /** {@code config} with the limits on node IDs per source given; a usage error if they are bad. */
    DolrConfig dolr(DolrConfig config) {
        if (maxIdsPerSource < 1) {
            throw new ParameterException(spec.commandLine(), "--max-ids-per-source must be at least 1, got " + maxIdsPerSource);
        }
        if (sourcePrefixV4 < 1 || sourcePrefixV4 > 32) {
            throw new ParameterException(spec.commandLine(), "--source-prefix-v4 must be 1 to 32, got " + sourcePrefixV4);
        }
        if (sourcePrefixV6 < 1 || sourcePrefixV6 > 128) {
            throw new ParameterException(spec.commandLine(), "--source-prefix-v6 must be 1 to 128, got " + sourcePrefixV6);
        }
        if (saltedRoots < 0 || saltedRoots > SaltedRoots.MAX) {
            throw new ParameterException(spec.commandLine(), "--salted-roots must be 0 to " + SaltedRoots.MAX + ", got " + saltedRoots);
        }
        return config.withSourceLimits(config.sourceLimits().withIdsPerSource(maxIdsPerSource)
                .withPrefixes(sourcePrefixV4, sourcePrefixV6)).withSaltedRoots(saltedRoots);
    }

    /**
     * Starts the node (with the disk store, if {@code --store} was given, and the caps on
     * unauthenticated connections), turning a port in use or a foreign address into a message that
     * says what to do.
     */
    OverlayServer start(ServerSettings settings) {
        StoreSettings disk = store();
        TransportConfig transport = transport(settings.transport());
        DolrConfig dolr = dolr(settings.dolr());
        try {
            return OverlayServer.start(settings.withStore(disk).withTransport(transport).withDolr(dolr));
        } catch (StoreUnavailableException e) {
            throw new CommandFailure(e.getMessage() + "; check that --store names a writable directory with room for --disk-gb", e);
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
