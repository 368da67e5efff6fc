package io.riptide.cli;

import io.riptide.cli.errors.CommandFailure;
import io.riptide.core.crypto.PublicKey;
import io.riptide.core.gateway.GatewayMessages.InsertReply;
import io.riptide.core.http.CachedResponse;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.http.Freshness;
import io.riptide.core.http.Headers;
import io.riptide.core.http.Variants;
import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.Heartbeat;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.ObjectFormatException;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.KeyRecords;
import io.riptide.core.object.KeyRevocation;
import io.riptide.core.object.KeyRotation;
import io.riptide.core.object.ObjectVerifier;
import io.riptide.core.object.ProviderTrust;
import io.riptide.core.object.VariantRecord;
import io.riptide.core.object.Verification;
import io.riptide.core.object.VersionFloor;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.DolrCodec;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.dolr.server.ServerSettings;
import io.riptide.gateway.client.GatewayClient;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code riptide inspect URL --join HOST:PORT --provider FILE}: what the overlay holds for a URL. */
@Command(name = "inspect", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Joins the overlay briefly and prints what it holds for a URL.",
            "Its GUID, the replica that answered, the certified version, headers and freshness, the latest "
            + "heartbeat, and whether it all verifies; then every replica the GUID's root knows of, with its "
            + "node and version, and which version is certified current."},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:found and verified", "1:runtime failure (e.g. the overlay could not be joined)",
            "2:usage or config error", "3:not in the overlay", "4:found but failed verification"},
        footerHeading = "%nExample:%n",
        footer = "  riptide inspect http://example.com/ --join 10.0.0.1:7101 --provider provider.key --insert")
final class InspectCommand implements Callable<Integer> {
    private static final int NOT_FOUND = 3;
    private static final int UNVERIFIED = 4;

    @Spec
    private CommandSpec spec;

    @Parameters(paramLabel = "URL", description = "The absolute http or https URL to look up (required).")
    private String url;

    @Option(names = "--join", paramLabel = "HOST:PORT", required = true, description = "A member of the overlay to join through (required).")
    private String join;

    @Option(names = "--join-timeout", paramLabel = "DURATION", defaultValue = "20s", converter = DurationConverter.class,
            description = "How long the join may take before giving up with exit code 1 (default: ${DEFAULT-VALUE}).")
    private Duration joinTimeout;

    @Option(names = "--provider", paramLabel = "KEY", required = true,
            description = "The provider: its key file (only the public part is used), or its public key as ed25519:BASE64 "
                + "(as `riptide gateway` prints it). Objects are named and verified under it (required).")
    private String providerKey;

    @Option(names = "--variant", paramLabel = "KEY", defaultValue = "",
            description = "The variant key for responses that Vary, e.g. accept-encoding=gzip (default: none).")
    private String variant;

    @Option(names = "--insert", description = "Ask the nearest gateway to insert (or refresh) the URL first (default: off).")
    private boolean insert;

    @Option(names = "--host", paramLabel = "H", defaultValue = "127.0.0.1",
            description = "Address this short-lived node listens on (default: ${DEFAULT-VALUE}).")
    private String host;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        CanonicalUrl canonical;
        try {
            canonical = CanonicalUrl.of(url);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "URL: " + e.getMessage());
        }
        NodeAddress bootstrap;
        try {
            bootstrap = NodeAddress.parse(join);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--join: " + e.getMessage());
        }
        PublicKey provider = KeyFiles.publicKey(providerKey, "--provider", spec.commandLine());
        Id guid = ObjectNames.objectGuid(provider, canonical.value(), variant);
        GatewayClient[] client = new GatewayClient[1];
        try (OverlayServer node = OverlayServer.start(ServerSettings.of(io.riptide.core.crypto.SigningKey.generate(new SecureRandom()),
                new NodeAddress(host, 0)).joining(bootstrap).withApplication(n -> {
                    client[0] = new GatewayClient(n, provider, Duration.ofSeconds(30));
                    return client[0];
                }, DolrCodec.create()))) {
            if (!node.awaitJoined(joinTimeout)) {
                throw new CommandFailure("could not join the overlay through " + bootstrap + " within "
                        + DurationConverter.format(joinTimeout) + ": check that a node runs there and that this machine can reach it"
                        + " (address, firewall), or allow longer with --join-timeout");
            }
            line(out, "URL", url);
            line(out, "canonical", canonical.value());
            line(out, "GUID", guid.toHex());
            if (insert) {
                CompletableFuture<InsertReply> reply = new CompletableFuture<>();
                node.call(n -> {
                    // An explicit re-check: the operator asks for the origin's current answer, which a plain miss
                    // would not get while the gateway's copy is still fresh.
                    client[0].insert(url, Headers.EMPTY, true, reply::complete);
                    return null;
                });
                InsertReply r = reply.get(40, TimeUnit.SECONDS);
                line(out, "insert", r.outcome() + " (version " + r.version() + "): " + r.reason());
            }
            LocateResult result = read(node, guid);
            // This one-shot node joined moments ago and may already be the GUID's root before the old
            // root has handed it the pointers; after an insert, give the handover a few heartbeats.
            for (int retry = 0; insert && !result.found() && retry < 3; retry++) {
                Thread.sleep(node.call(n -> n.config().heartbeatInterval()).get(5, TimeUnit.SECONDS).toMillis());
                result = read(node, guid);
            }
            if (!result.found()) {
                line(out, "replica", "none found (" + result.failure() + ")");
                return NOT_FOUND;
            }
            line(out, "replica", result.replica() + ", " + result.hops() + " hops, "
                    + String.format("%.1f ms", result.elapsedNanos() / 1e6));
            int code = describe(out, guid, provider, result.data());
            describeReplicas(out, node, guid, provider, result);
            return code;
        }
    }

    /**
     * One "holder" line per replica (the nearest one and those the GUID's root lists), each read where
     * it is and verified on its own, then the newest version among them that verifies: the current one.
     */
    private static void describeReplicas(PrintWriter out, OverlayServer node, Id guid, PublicKey provider, LocateResult nearest)
            throws Exception {
        CompletableFuture<Optional<List<NodeHandle>>> listing = new CompletableFuture<>();
        node.call(n -> {
            n.listReplicas(guid, listing::complete);
            return null;
        });
        Optional<List<NodeHandle>> listed = listing.get(30, TimeUnit.SECONDS);
        Map<Id, LocateResult> reads = new LinkedHashMap<>();
        reads.put(nearest.replica().id(), nearest);
        for (NodeHandle holder : listed.orElse(List.of())) {
            if (!reads.containsKey(holder.id())) {
                LocateResult r = readAt(node, holder, guid);
                // A holder that dropped its copy meanwhile is answered for by another: keep who answered.
                reads.putIfAbsent(r.found() ? r.replica().id() : holder.id(), r.found() ? r : failedAt(holder, r));
            }
        }
        line(out, "replicas", reads.size() + " found" + (listed.isPresent()
                ? " (the nearest and those the GUID's root lists)"
                : " (the GUID's root did not answer: only the nearest is known)"));
        Map<NodeHandle, String> described = new LinkedHashMap<>();
        Map<NodeHandle, Long> versions = new LinkedHashMap<>();
        for (LocateResult r : reads.values()) {
            if (r.data() == null) {
                described.put(r.replica(), "unreadable (" + r.failure() + ")");
                continue;
            }
            if (KeyRecords.isKeyRecords(r.data())) {
                described.put(r.replica(), "key records in place of the object (a revocation of the key that signed it)");
                continue;
            }
            try {
                CachedCopy copy = CachedCopy.fromBytes(r.data(), 64 << 20);
                ObjectVerifier verifier = new ObjectVerifier(Set.of(provider), new VersionFloor(16), 64 << 20);
                Verification v = verifier.verify(copy.object(), guid);
                long version = copy.object().certificate().version();
                String heartbeat = copy.heartbeat().filter(h -> verifier.verifyHeartbeat(h, copy.object().certificate()).ok())
                        .map(h -> ", heartbeat " + Instant.ofEpochMilli(h.issuedAtMillis())).orElse("");
                described.put(r.replica(), "version " + version + heartbeat + (v.ok() ? "" : ", NOT VERIFIED: " + v.message()));
                if (v.ok()) {
                    versions.put(r.replica(), version);
                }
            } catch (ObjectFormatException e) {
                described.put(r.replica(), "NOT VERIFIED: " + e.getMessage());
            }
        }
        long current = versions.values().stream().mapToLong(Long::longValue).max().orElse(0);
        for (Map.Entry<NodeHandle, String> d : described.entrySet()) {
            Long version = versions.get(d.getKey());
            String standing = version == null ? "" : version == current ? " (current)" : " (superseded by version " + current + ")";
            line(out, "holder", d.getKey() + ": " + d.getValue() + standing);
        }
        line(out, "current", current == 0 ? "no replica verifies" : "version " + current
                + " (the newest that verifies, held by " + versions.values().stream().filter(v -> v == current).count()
                + " of " + reads.size() + ")");
    }

    private static LocateResult readAt(OverlayServer node, NodeHandle holder, Id guid) throws Exception {
        CompletableFuture<LocateResult> read = new CompletableFuture<>();
        node.call(n -> {
            n.readAt(holder, guid, n.config().defaultTtl(), read::complete);
            return null;
        });
        return read.get(30, TimeUnit.SECONDS);
    }

    private static LocateResult failedAt(NodeHandle holder, LocateResult failed) {
        return new LocateResult(failed.guid(), holder, failed.failure(), failed.hops(), failed.elapsedNanos(), null);
    }

    private static LocateResult read(OverlayServer node, Id guid) throws Exception {
        CompletableFuture<LocateResult> read = new CompletableFuture<>();
        node.call(n -> {
            n.read(guid, n.config().defaultTtl(), read::complete);
            return null;
        });
        return read.get(30, TimeUnit.SECONDS);
    }

    private int describe(PrintWriter out, Id guid, PublicKey provider, byte[] data) {
        if (VariantRecord.isVariantRecord(data)) {
            return describeRecord(out, guid, provider, data);
        }
        if (KeyRecords.isKeyRecords(data)) {
            return describeKeyRecords(out, provider, data);
        }
        CachedCopy copy;
        try {
            copy = CachedCopy.fromBytes(data, 64 << 20);
        } catch (ObjectFormatException e) {
            line(out, "verified", "NO: " + e.getMessage());
            return UNVERIFIED;
        }
        ObjectCertificate c = copy.object().certificate();
        line(out, "version", Long.toString(c.version()));
        line(out, "status", c.statusCode() + " " + c.reasonPhrase());
        for (Headers.Field f : c.headers().fields()) {
            line(out, "header", f.name() + ": " + f.value());
        }
        line(out, "body", copy.object().response().bodyLength() + " bytes, SHA-256 " + HexFormat.of().formatHex(c.bodyDigest()));
        line(out, "fetched", Instant.ofEpochMilli(c.responseTimeMillis()).toString());
        Instant now = Instant.now();
        Freshness freshness = new Freshness();
        CachedResponse cached = new CachedResponse(c.statusCode(), c.headers(), Instant.ofEpochMilli(c.requestTimeMillis()),
                Instant.ofEpochMilli(c.responseTimeMillis()));
        long age = freshness.currentAge(cached, now).getSeconds();
        long lifetime = c.freshnessLifetimeSeconds();
        line(out, "freshness", "lifetime " + lifetime + " s, age " + age + " s: "
                + (age < lifetime ? "fresh (" + (lifetime - age) + " s left)" : "stale by " + (age - lifetime) + " s"));
        ObjectVerifier verifier = new ObjectVerifier(Set.of(provider), new VersionFloor(16), 64 << 20);
        Verification v = verifier.verify(copy.object(), guid);
        if (copy.heartbeat().isPresent()) {
            Heartbeat h = copy.heartbeat().get();
            Verification hv = verifier.verifyHeartbeat(h, c);
            long since = (now.toEpochMilli() - h.issuedAtMillis()) / 1000;
            line(out, "heartbeat", "version " + h.version() + " current at " + Instant.ofEpochMilli(h.issuedAtMillis())
                    + " (" + since + " s ago): " + (hv.ok() ? "valid" : "INVALID: " + hv.message()));
        } else {
            line(out, "heartbeat", "none");
        }
        line(out, "verified", v.ok() ? "yes (provider, signature, body digest, GUID, version)" : "NO: " + v.message());
        return v.ok() ? 0 : UNVERIFIED;
    }

    /** The replica gave way to key records: a revocation of the key that signed it (or the key-records GUID). */
    private static int describeKeyRecords(PrintWriter out, PublicKey provider, byte[] data) {
        KeyRecords records;
        try {
            records = KeyRecords.fromBytes(data);
        } catch (ObjectFormatException e) {
            line(out, "verified", "NO: " + e.getMessage());
            return UNVERIFIED;
        }
        ProviderTrust trust = ProviderTrust.of(Set.of(provider));
        List<Verification> verdicts = trust.learn(records);
        for (KeyRotation r : records.rotations()) {
            line(out, "rotation", r.oldKey() + " -> " + r.newKey() + " (#" + r.serial() + ", issued "
                    + Instant.ofEpochMilli(r.issuedAtMillis()) + ")" + (trust.trusts(r.newKey()) ? ", trusted" : ""));
        }
        for (KeyRevocation v : records.revocations()) {
            line(out, "revoked", v.revokedKey() + (v.selfSigned() ? " by itself" : " by " + v.signer()) + " (issued "
                    + Instant.ofEpochMilli(v.issuedAtMillis()) + ")" + (trust.isRevoked(v.revokedKey()) ? ", verified" : ""));
        }
        List<String> refused = verdicts.stream().filter(v -> !v.ok()).map(Verification::message).toList();
        line(out, "verified", refused.isEmpty() ? "yes (key records: no object is served here)" : "NO: " + refused.get(0));
        return refused.isEmpty() ? 0 : UNVERIFIED;
    }

    /** The URL varies: its base GUID holds the provider's record of the fields, not a response. */
    private static int describeRecord(PrintWriter out, Id guid, PublicKey provider, byte[] data) {
        VariantRecord record;
        try {
            record = VariantRecord.fromBytes(data);
        } catch (ObjectFormatException e) {
            line(out, "verified", "NO: " + e.getMessage());
            return UNVERIFIED;
        }
        line(out, "varies on", String.join(", ", record.varyFields()) + " (variant record version " + record.version()
                + ", issued " + Instant.ofEpochMilli(record.issuedAtMillis()) + ")");
        line(out, "variants", "look one up with --variant, e.g. --variant "
                + Variants.key(record.varyFields(), Headers.of("Accept-Encoding", "gzip")).orElseThrow());
        Verification v = new ObjectVerifier(Set.of(provider), new VersionFloor(16)).verifyVariantRecord(record, guid);
        line(out, "verified", v.ok() ? "yes (provider, signature, GUID, version)" : "NO: " + v.message());
        return v.ok() ? 0 : UNVERIFIED;
    }

    private static void line(PrintWriter out, String label, String value) {
        RunningNode.say(out, String.format("%-10s %s", label, value));
    }
}
