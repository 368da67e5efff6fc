package io.riptide.simulator.hostile;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.http.Headers;
import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.ObjectFormatException;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.StoredResponse;
import io.riptide.core.object.WebObject;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.client.NodeAccess;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.secure.RedundantReadStats;
import io.riptide.dolr.simulation.GroupLatency;
import io.riptide.dolr.simulation.SimulatedOverlay;
import io.riptide.simulator.report.Progress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * One run of honest reads among hostile peers: an overlay in 5 latency groups, a seeded share of its
 * nodes {@link HostilePeer}s, provider-signed objects stored on honest nodes, and reads of them from
 * honest nodes, each beside a plain read of the same object. Shared by {@code HostilePeersTest} and
 * the {@code hostile} scenario, so the scenario's figures at a seed are the test's.
 */
public final class HostileRun {
    /** Latency groups: a small overlay's stubs. */
    private static final int GROUPS = 5;
    /** Fixed rather than drawn from the seed, so a seed's objects (and GUIDs) are the ones measured in docs/results.md. */
    private static final SigningKey PROVIDER = SigningKey.fromSeed(new byte[32]);
    private static final int TTL = 32;

    private HostileRun() {
    }

    /** How each measured read is made. */
    public enum ReadPath {
        /** {@code readVerified}, the bytes judged by comparison with the provider's (the signature check, in effect). */
        VERIFIED,
        /** A client's read through its access node ({@link NodeAccess}, as a browser proxy reads): the node judges the bytes. */
        CLIENT
    }

    /**
     * @param hostileNodes how many of {@code nodes} are hostile (chosen by the seed); fewer than {@code nodes}
     * @param saltedRoots  every node's {@code DolrConfig.saltedRoots}
     */
    public record Setup(long seed, int nodes, int hostileNodes, int objects, int reads, int saltedRoots, ReadPath path) {
        public Setup {
            if (nodes < 1 || hostileNodes < 0 || hostileNodes >= nodes || objects < 1 || reads < 1) {
                throw new IllegalArgumentException("need an honest node, an object and a read: " + nodes + " nodes, "
                        + hostileNodes + " hostile, " + objects + " objects, " + reads + " reads");
            }
        }
    }

    /**
     * What a run found.
     *
     * @param joined          nodes joined when the objects were stored
     * @param succeeded       measured reads that returned the provider's bytes
     * @param forgedServed    measured reads that returned other bytes
     * @param refusedByCaller bytes a {@link ReadPath#VERIFIED} read's judge refused (0 on the client path: the node counts those, {@code stats().refused()})
     * @param plainSucceeded  plain reads that returned the provider's bytes
     * @param plainForged     plain reads that returned other bytes
     * @param stats           the honest nodes' redundant-read counters, summed
     * @param messages        messages sent in the whole run
     * @param readMessages    of them, sent from the first read on
     */
    public record Figures(Setup setup, List<Integer> hostile, int joined, int succeeded, int forgedServed, int refusedByCaller,
                          int plainSucceeded, int plainForged, HostileTally tally, RedundantReadStats stats, long messages,
                          long readMessages, long events, long virtualNanos) {
        public Figures {
            hostile = List.copyOf(hostile);
        }

        /** Share of the measured reads that returned the provider's bytes. */
        public double successRate() {
            return succeeded / (double) setup.reads();
        }

        /** Share of the plain reads that returned the provider's bytes. */
        public double plainSuccessRate() {
            return plainSucceeded / (double) setup.reads();
        }
    }

    /** Runs {@code setup}, showing the joins and the reads on {@code progress}. */
    public static Figures run(Setup setup, Progress progress) {
        int nodes = setup.nodes();
        Simulation sim = new Simulation(setup.seed());
        GroupLatency latency = new GroupLatency(GROUPS);
        SimulatedOverlay overlay = new SimulatedOverlay(sim, latency, DolrConfig.defaults().withSaltedRoots(setup.saltedRoots()),
                latency::groupOf, v -> OverlayApplication.NONE);
        SplittableRandom choice = new SplittableRandom(setup.seed() ^ 0x4057);
        Set<Integer> hostile = new HashSet<>();
        while (hostile.size() < setup.hostileNodes()) {
            hostile.add(choice.nextInt(nodes));
        }
        Map<Id, byte[]> truth = new HashMap<>();
        HostileTally tally = new HostileTally();
        overlay.interceptWith((vertex, env, node) -> hostile.contains(vertex)
                ? new HostilePeer(env, node, guid -> forged(truth.get(guid)), tally) : node);
        List<Integer> vertices = new ArrayList<>();
        for (int v = 0; v < nodes; v++) {
            vertices.add(v);
        }
        progress.begin("joining " + nodes + " nodes, " + setup.hostileNodes() + " hostile", nodes);
        overlay.addAll(vertices, Duration.ofMillis(50), Duration.ofSeconds(60), progress::step);
        progress.finish();
        sim.runFor(Duration.ofSeconds(30).toNanos());
        int joined = (int) vertices.stream().filter(v -> overlay.node(v).isJoined()).count();
        List<Integer> honest = new ArrayList<>(vertices);
        honest.removeAll(hostile);

        Id[] guids = new Id[setup.objects()];
        for (int i = 0; i < guids.length; i++) {
            String url = "http://example.com/hostile/" + i;
            guids[i] = ObjectNames.objectGuid(PROVIDER.publicKey(), url, "");
            byte[] data = signed(url, i);
            truth.put(guids[i], data);
            overlay.node(honest.get(choice.nextInt(honest.size()))).storeReplica(guids[i], data);
        }
        sim.runFor(Duration.ofSeconds(10).toNanos());

        long messagesBefore = overlay.network().messagesSent();
        int[] measured = new int[3]; // succeeded, forged served, refused by the caller's judge
        int[] plain = new int[2]; // succeeded with the true bytes, forged bytes returned
        progress.begin(setup.reads() + " reads from honest nodes", setup.reads());
        for (int r = 0; r < setup.reads(); r++) {
            Id guid = guids[choice.nextInt(guids.length)];
            byte[] want = truth.get(guid);
            OverlayNode reader = overlay.node(honest.get(choice.nextInt(honest.size())));
            if (setup.path() == ReadPath.CLIENT) {
                new NodeAccess(reader).read(guid, TTL, read -> {
                    if (read.found()) {
                        measured[Arrays.equals(read.data(), want) ? 0 : 1]++;
                    }
                });
            } else {
                reader.readVerified(guid, TTL, data -> {
                    boolean ok = Arrays.equals(data, want);
                    if (!ok) {
                        measured[2]++;
                    }
                    return ok;
                }, result -> count(result, want, measured));
            }
            reader.read(guid, TTL, result -> {
                if (result.found() && result.data() != null) {
                    plain[Arrays.equals(result.data(), want) ? 0 : 1]++;
                }
            });
            sim.runFor(Duration.ofMillis(50).toNanos());
            progress.step();
        }
        sim.runFor(Duration.ofSeconds(10).toNanos()); // the last reads' answers, widened ones included
        progress.finish();

        RedundantReadStats sum = new RedundantReadStats(0, 0, 0, 0, 0, 0, 0);
        for (int v : honest) {
            RedundantReadStats s = overlay.node(v).redundantReadStats();
            sum = new RedundantReadStats(sum.reads() + s.reads(), sum.succeeded() + s.succeeded(), sum.widened() + s.widened(),
                    sum.extraAttempts() + s.extraAttempts(), sum.refused() + s.refused(), sum.listings() + s.listings(),
                    sum.directReads() + s.directReads());
        }
        List<Integer> hostileSorted = new ArrayList<>(hostile);
        hostileSorted.sort(null);
        long messages = overlay.network().messagesSent();
        return new Figures(setup, hostileSorted, joined, measured[0], measured[1], measured[2], plain[0], plain[1], tally, sum,
                messages, messages - messagesBefore, sim.eventsRun(), sim.now());
    }

    private static void count(LocateResult result, byte[] want, int[] measured) {
        if (result.found()) {
            measured[Arrays.equals(result.data(), want) ? 0 : 1]++;
        }
    }

    private static byte[] signed(String url, int i) {
        byte[] body = ("object " + i + " as its provider signed it").getBytes(StandardCharsets.UTF_8);
        StoredResponse r = new StoredResponse(200, "OK", Headers.of("cache-control", "max-age=600"), body);
        return CachedCopy.of(WebObject.of(ObjectCertificate.sign(PROVIDER, url, "", 1, r, 1_000, 1_000, 600), body)).toBytes();
    }

    /** The object with its body tampered with, under the provider's certificate: what a hostile holder would pass off. */
    private static byte[] forged(byte[] honest) {
        if (honest == null) {
            return new byte[] {0};
        }
        try {
            WebObject real = CachedCopy.fromBytes(honest, 1 << 20).object();
            byte[] body = real.response().body().clone();
            body[body.length - 1] ^= 1;
            return CachedCopy.of(WebObject.of(real.certificate(), body)).toBytes();
        } catch (ObjectFormatException e) {
            throw new IllegalStateException(e);
        }
    }
}
