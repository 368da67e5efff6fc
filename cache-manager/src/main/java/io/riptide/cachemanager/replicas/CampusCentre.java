package io.riptide.cachemanager.replicas;

import io.riptide.cachemanager.CacheManagerConfig;
import io.riptide.cachemanager.hot.RequestRates;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.placement.PlacementMessages;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A copy of what the campus reads at the node its readers are nearest on average. A manager runs
 * where its operator had a machine, not where its users are: its copies serve the campus only as
 * well as that machine's position allows, which is no better than a proxy cache on a host drawn the
 * same way. So, every {@link #CHECK_EVERY}, the manager takes the heaviest sources of its campus's
 * hits over the last {@link #WINDOW} (access nodes within its local area, at most
 * {@link PlacementMessages#MAX_TARGETS}), asks this node and the heaviest {@link #CANDIDATES} of
 * them for their round trips to all of those sources ({@code distancesFrom}), and takes the
 * candidate with the least load-weighted mean round trip (the campus's 1-median among the
 * candidates) as the centre, if it beats this node's own mean by at least {@link #GAIN} (and the
 * current centre's, to move). Objects the campus hit that this node holds are then copied to the
 * centre ({@code replicateTo}) a few at a time: a transfer inside the campus, never across its
 * uplink. A reader's locate finds whichever of the two copies is nearer it.
 *
 * <p>A centre given up leaves its copies to its replacement, as any replica. The measurements cost
 * one request per candidate and a probe per unmeasured pair, every check.
 */
public final class CampusCentre {
    /** How often the centre is looked for again. */
    static final Duration CHECK_EVERY = Duration.ofSeconds(30);
    /** The campus's hits counted toward its readers and the objects copied. */
    static final Duration WINDOW = Duration.ofMinutes(10);
    /** Readers (besides this node) that measure their distance to the others as candidates. */
    static final int CANDIDATES = PlacementMessages.MAX_TARGETS;
    /** Fewer local readers than this: no centre worth finding. */
    static final int MIN_READERS = 8;
    /** A candidate becomes the centre only if its mean round trip is at most this share of the incumbent's. */
    static final double GAIN = 0.9;
    /** Copies to the centre in flight at once. */
    static final int MAX_IN_FLIGHT = 8;

    private final OverlayNode node;
    private final boolean enabled;
    private final int maxTracked;
    private final RequestRates<NodeHandle> readers;
    private final RequestRates<Id> objects;
    private final Set<Id> copied = new HashSet<>();
    private final ArrayDeque<Id> waiting = new ArrayDeque<>();
    private NodeHandle centre;
    private double centreMeanNanos = Double.NaN;
    private double ownMeanNanos = Double.NaN;
    private boolean checking;
    private int inFlight;
    private long checks;
    private long moves;
    private long made;
    private long failures;

    public CampusCentre(OverlayNode node, CacheManagerConfig config) {
        this.node = node;
        this.enabled = config.campusCentre();
        this.maxTracked = config.maxTracked();
        this.readers = new RequestRates<>(WINDOW, config.maxTracked());
        this.objects = new RequestRates<>(WINDOW, config.maxTracked());
    }

    /** Starts the periodic search for the centre. */
    public void start() {
        if (enabled) {
            node.env().periodic(CHECK_EVERY, this::check);
        }
    }

    /** {@code count} hits of {@code guid} reported by proxies behind {@code source}. */
    public void onHits(Id guid, NodeHandle source, long count) {
        if (!enabled) {
            return;
        }
        long now = node.env().nowNanos();
        readers.record(source, count, now);
        objects.record(guid, count, now);
        if (centre != null) {
            offer(guid);
        }
    }

    /** Looks for the centre among this node and the heaviest local readers. */
    void check() {
        if (checking) {
            return;
        }
        long now = node.env().nowNanos();
        List<NodeHandle> heaviest = new ArrayList<>(readers.active(now));
        heaviest.removeIf(r -> r.id().equals(node.self().id()));
        heaviest.sort(Comparator.comparingDouble((NodeHandle r) -> -readers.perSecond(r, now)).thenComparing(r -> r.id()));
        List<NodeHandle> sample = heaviest.subList(0, Math.min(heaviest.size(), PlacementMessages.MAX_TARGETS));
        if (sample.size() < MIN_READERS) {
            return;
        }
        checking = true;
        checks++;
        long reach = node.localReachNanos();
        node.distancesFrom(node.self(), sample, own -> {
            List<NodeHandle> local = new ArrayList<>();
            for (int i = 0; i < own.length; i++) {
                if (own[i] >= 0 && own[i] <= reach) {
                    local.add(sample.get(i));
                }
            }
            if (local.size() < MIN_READERS) {
                checking = false;
                return;
            }
            List<NodeHandle> candidates = new ArrayList<>();
            candidates.add(node.self());
            if (centre != null && local.stream().noneMatch(r -> r.id().equals(centre.id()))) {
                candidates.add(centre);
            }
            candidates.addAll(local.subList(0, Math.min(local.size(), CANDIDATES)));
            measureCandidates(candidates, local, now);
        });
    }

    private void measureCandidates(List<NodeHandle> candidates, List<NodeHandle> local, long now) {
        double[] weights = local.stream().mapToDouble(r -> readers.perSecond(r, now)).toArray();
        double[] means = new double[candidates.size()];
        int[] left = {candidates.size()};
        for (int c = 0; c < candidates.size(); c++) {
            int slot = c;
            node.distancesFrom(candidates.get(c), local, rtts -> {
                means[slot] = weightedMean(rtts, weights);
                if (--left[0] == 0) {
                    decide(candidates, means);
                }
            });
        }
    }

    /** The load-weighted mean of the answered round trips; infinite if a quarter or more went unanswered. */
    static double weightedMean(long[] rtts, double[] weights) {
        double sum = 0;
        double weight = 0;
        int answered = 0;
        for (int i = 0; i < rtts.length; i++) {
            if (rtts[i] >= 0) {
                sum += weights[i] * rtts[i];
                weight += weights[i];
                answered++;
            }
        }
        return answered * 4 < rtts.length * 3 || weight == 0 ? Double.POSITIVE_INFINITY : sum / weight;
    }

    private void decide(List<NodeHandle> candidates, double[] means) {
        checking = false;
        ownMeanNanos = means[0];
        int best = 0;
        double incumbent = Double.POSITIVE_INFINITY;
        for (int c = 1; c < candidates.size(); c++) {
            if (means[c] < means[best]) {
                best = c;
            }
            if (centre != null && candidates.get(c).id().equals(centre.id())) {
                incumbent = means[c];
            }
        }
        if (best == 0 || means[best] > GAIN * means[0]) {
            centre = null; // this node is about as central as any: its own copies serve
            centreMeanNanos = Double.NaN;
            return;
        }
        NodeHandle chosen = candidates.get(best);
        if (centre != null && (chosen.id().equals(centre.id()) || means[best] > GAIN * incumbent)) {
            centreMeanNanos = incumbent;
            return;
        }
        centre = chosen;
        centreMeanNanos = means[best];
        moves++;
        copied.clear();
        waiting.clear();
        objects.active(node.env().nowNanos()).forEach(this::offer);
    }

    /** Queues a copy of {@code guid} to the centre, if this node holds it and the centre was not given it yet. */
    private void offer(Id guid) {
        if (copied.contains(guid) || !node.replicas().contains(guid)) {
            return;
        }
        if (copied.size() >= maxTracked) {
            copied.clear(); // forgotten: a repeated copy is answered "already held" at once
        }
        copied.add(guid);
        waiting.add(guid);
        drain();
    }

    private void drain() {
        while (inFlight < MAX_IN_FLIGHT && !waiting.isEmpty() && centre != null) {
            Id guid = waiting.poll();
            inFlight++;
            node.replicateTo(centre, guid, r -> {
                inFlight--;
                if (r.ok()) {
                    if (!"already held".equals(r.reason())) {
                        made++;
                    }
                } else {
                    failures++;
                }
                drain();
            });
        }
    }

    /** The node the campus's readers are nearest on average, if it is not this one; null otherwise. */
    public NodeHandle centre() {
        return centre;
    }

    /** The readers' load-weighted mean round trip to this node and to the centre, at the last check (ms; NaN if none). */
    public double[] meansMs() {
        return new double[] {ownMeanNanos / 1e6, centreMeanNanos / 1e6};
    }

    /** Searches for the centre that measured distances. */
    public long checks() {
        return checks;
    }

    /** Times a new centre was chosen. */
    public long moves() {
        return moves;
    }

    /** Copies made at the centre. */
    public long made() {
        return made;
    }

    /** Copies to the centre that failed. */
    public long failures() {
        return failures;
    }
}
