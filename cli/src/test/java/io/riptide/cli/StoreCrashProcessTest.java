package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.Headers;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.ObjectVerifier;
import io.riptide.core.object.StoredResponse;
import io.riptide.core.object.Verification;
import io.riptide.core.object.VersionFloor;
import io.riptide.core.object.WebObject;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.placement.PlaceResult;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.dolr.server.ServerSettings;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The content store's crash guarantee, on a real process: a {@code riptide node --store} is killed
 * with SIGKILL while replicas (signed copies, as a gateway makes them) are being copied into it;
 * restarted over the same directory, every object it reports is served byte for byte as inserted and
 * verifies against the provider's key, and every object acknowledged before a flush it reported
 * completing is there.
 */
class StoreCrashProcessTest {
    private static final Pattern LISTENING = Pattern.compile("node ([0-9a-f]{40}) listening on 127\\.0\\.0\\.1:(\\d+)");
    private static final Pattern ADMIN = Pattern.compile("status page http://(127\\.0\\.0\\.1:\\d+)/ \\(also /status\\.json and /metrics\\)");
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final long SECONDS = 20;
    private static final int DURABLE = 30;
    private static final int MAX_OBJECTS = 2000;
    private static final int IN_FLIGHT_AT_KILL = 20;

    @TempDir
    Path dir;

    private final HttpClient http = HttpClient.newHttpClient();
    private final SplittableRandom random = new SplittableRandom(11);
    private final Map<Id, byte[]> inserted = new LinkedHashMap<>();
    private final SigningKey provider = key();
    private int objectsMade;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void aNodeKilledWhileInsertingComesBackWithEveryFlushedObjectAndNothingCorrupt() throws Exception {
        String[] store = {"--store", dir.resolve("store").toString(), "--disk-gb", "0.0625", "--memory-mb", "4",
            "--admin-port", "0", "--status-every", "1h"};
        List<Id> durable = new ArrayList<>();
        NodeProcess node = NodeProcess.start("node", dir, args("--port", "0", store));
        try {
            NodeAddress address = address(node);
            String admin = admin(node);
            try (OverlayServer inserter = OverlayServer.start(ServerSettings.of(key(), anyPort()).joining(address))) {
                assertTrue(inserter.awaitJoined(WAIT));
                NodeHandle target = inserter.call(n -> n.leafSet().members().get(0)).get(SECONDS, TimeUnit.SECONDS);
                for (int i = 0; i < DURABLE; i++) {
                    CompletableFuture<PlaceResult> copied = insert(inserter, target);
                    assertTrue(copied.get(SECONDS, TimeUnit.SECONDS).ok(), "acknowledged " + i);
                    durable.add(lastInserted());
                }
                // An acknowledged copy's records may still wait for the node's disk stage: once none
                // waits, every durable object is in the disk tier's write buffers.
                long writesDeadline = System.nanoTime() + WAIT.toNanos();
                while (metric(admin, "riptide_store_write_queue_length") > 0) {
                    assertTrue(System.nanoTime() < writesDeadline, "the node's disk writes never caught up");
                    java.util.concurrent.locks.LockSupport.parkNanos(10_000_000); // polling interval only
                }
                // Keep inserting until the node has completed two more flushes: the second began after
                // the last durable object reached a write buffer (buffers are flushed in order), so it is on disk.
                double flushesAtAck = metric(admin, "riptide_store_disk_flushes_total");
                int i = DURABLE;
                while (metric(admin, "riptide_store_disk_flushes_total") < flushesAtAck + 2) {
                    assertTrue(i < MAX_OBJECTS, "the node reported no flush after " + i + " inserts");
                    insert(inserter, target).get(SECONDS, TimeUnit.SECONDS);
                    i++;
                }
                // Then kill it in the middle of copies in flight.
                for (int k = 0; k < IN_FLIGHT_AT_KILL; k++) {
                    insert(inserter, target);
                }
                node.kill();
            }
        } finally {
            node.close();
        }

        NodeProcess again = NodeProcess.start("again", dir, args("--port", "0", store));
        try {
            NodeAddress address = address(again);
            String admin = admin(again);
            double reported = metric(admin, "riptide_node_replicas");
            assertTrue(reported >= DURABLE, "reported " + reported);
            try (OverlayServer reader = OverlayServer.start(ServerSettings.of(key(), anyPort()).joining(address))) {
                assertTrue(reader.awaitJoined(WAIT));
                awaitPointers(reader, (int) reported);
                ObjectVerifier verifier = new ObjectVerifier(Set.of(provider.publicKey()), new VersionFloor(1024));
                int served = 0;
                for (Map.Entry<Id, byte[]> e : inserted.entrySet()) {
                    LocateResult r = read(reader, e.getKey());
                    if (durable.contains(e.getKey())) {
                        assertTrue(r.found(), "an object acknowledged before a completed flush is back: " + r);
                    }
                    if (r.found()) {
                        served++;
                        assertArrayEquals(e.getValue(), r.data(), "byte for byte: " + e.getKey().shortHex());
                        CachedCopy copy = CachedCopy.fromBytes(r.data(), WebObject.DEFAULT_MAX_BODY_BYTES);
                        Verification verdict = verifier.verify(copy.object(), e.getKey());
                        assertTrue(verdict.ok(), "verifies: " + verdict);
                    }
                }
                assertEquals(reported, served, "every object the node reports is served, and only those");
            }
        } finally {
            again.close();
        }
    }

    /**
     * Waits until {@code reader} holds pointers for {@code objects} objects: the node it joined hands
     * them over just after the join completes, and a read before that finds no pointer at a root.
     */
    static void awaitPointers(OverlayServer reader, int objects) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (reader.call(n -> n.pointers().size()).get(SECONDS, TimeUnit.SECONDS) < objects) {
            assertTrue(System.nanoTime() < deadline, "the reader got no pointers for the " + objects + " objects");
            // Polling interval only; the deadline above is the bound.
            java.util.concurrent.locks.LockSupport.parkNanos(50_000_000);
        }
    }

    /**
     * Signs a new object (a random body of up to 30 KB) as a gateway would, stores it on the inserter
     * and asks the node to copy it; completes with the node's answer.
     */
    private CompletableFuture<PlaceResult> insert(OverlayServer inserter, NodeHandle target) throws Exception {
        byte[] body = new byte[1 + random.nextInt(30_000)];
        random.nextBytes(body);
        String url = "http://crash.example/object/" + objectsMade++;
        StoredResponse response = new StoredResponse(200, "OK", Headers.of("Content-Type", "application/octet-stream"), body);
        long now = System.currentTimeMillis();
        ObjectCertificate certificate = ObjectCertificate.sign(provider, url, "", 1, response, now, now, 3600);
        Id guid = certificate.guid();
        byte[] data = CachedCopy.of(new WebObject(certificate, response)).toBytes();
        inserted.put(guid, data);
        assertTrue(inserter.storeReplica(guid, data).get(SECONDS, TimeUnit.SECONDS));
        CompletableFuture<PlaceResult> result = new CompletableFuture<>();
        inserter.call(n -> {
            n.replicateTo(target, guid, result::complete);
            return null;
        }).get(SECONDS, TimeUnit.SECONDS);
        return result;
    }

    private Id lastInserted() {
        Id last = null;
        for (Id guid : inserted.keySet()) {
            last = guid;
        }
        return last;
    }

    private static LocateResult read(OverlayServer reader, Id guid) throws Exception {
        CompletableFuture<LocateResult> result = new CompletableFuture<>();
        reader.call(n -> {
            n.read(guid, 16, result::complete);
            return null;
        }).get(SECONDS, TimeUnit.SECONDS);
        LocateResult r = result.get(SECONDS, TimeUnit.SECONDS);
        assertNotNull(r);
        return r;
    }

    private double metric(String admin, String name) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://" + admin + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode());
        Double value = PrometheusTextParser.parse(r.body()).get(name);
        assertNotNull(value, name + " in " + r.body());
        return value;
    }

    private static NodeAddress address(NodeProcess node) {
        Matcher m = LISTENING.matcher(node.await(l -> LISTENING.matcher(l).matches(), "its address", WAIT));
        assertTrue(m.matches());
        return new NodeAddress("127.0.0.1", Integer.parseInt(m.group(2)));
    }

    private static String admin(NodeProcess node) {
        Matcher m = ADMIN.matcher(node.await(l -> ADMIN.matcher(l).matches(), "its status page", WAIT));
        assertTrue(m.matches());
        return m.group(1);
    }

    private static String[] args(String a, String b, String[] rest) {
        List<String> all = new ArrayList<>(List.of(a, b));
        all.addAll(List.of(rest));
        return all.toArray(String[]::new);
    }

    private static NodeAddress anyPort() {
        return new NodeAddress("127.0.0.1", 0);
    }

    private static SigningKey key() {
        return SigningKey.generate(new SecureRandom());
    }
}
