package io.riptide.simulator.scenario;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.sim.Simulation;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.simulation.SimulatedOverlay;
import io.riptide.simulator.dissemination.CrossingTally;
import io.riptide.simulator.dissemination.TreeCost;
import io.riptide.simulator.dissemination.TreeGrowth;
import io.riptide.simulator.overlay.OverlayBuild;
import io.riptide.simulator.report.Charts;
import io.riptide.simulator.report.CsvWriter;
import io.riptide.simulator.report.Progress;
import io.riptide.simulator.report.ResultJson;
import io.riptide.simulator.report.Series;
import io.riptide.simulator.topology.TransitStubTopology;
import io.riptide.dolr.dissemination.TreeStats;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeSet;

/**
 * The paper's Fig. 22: interdomain link crossings of a dissemination tree against the number of
 * replicas, beside the optimum and beside direct fetches from the root (see {@link TreeCost} for the
 * exact counts). For each replica count r, a separate object gets its primary copy on a random node
 * (the tree's root) and then r replicas on random nodes of random stubs, one every {@code --spacing-s}
 * virtual seconds; each new replica reads the object from the replica the overlay finds nearest,
 * stores it and attaches to that replica. The trees of all counts grow side by side in one overlay
 * (they are different objects, so they do not meet) to keep the virtual time short. Once all have
 * grown, the tree each member actually joined is measured; then the root publishes an update and,
 * after {@code --update-wait-s}, the members holding it are counted. The object is a page of about
 * 24 KB and the update changes its headline, so the update's bytes, sent as deltas down the tree,
 * stand beside what the full page down every edge would have cost.
 *
 * <p>Beside the tree's per-update cost it reports what building the tree cost: every interdomain
 * crossing of every message sent for the object's first copies, first publishes and attaches, seeks
 * and moves, from the first replica's request to the update ({@code creation_crossings}; see
 * {@link CrossingTally} for what is counted and how), the beats and pointer refreshes sent meanwhile
 * beside it, and the update's crossings measured the same way. A replica that never attached, or did not receive the update,
 * fails the target.
 */
public final class DisseminationScenario implements Scenario {
    private static final double TARGET_RATIO = 1.1;
    // Phases of the crossing tally: the primary's own publish, building the tree, pushing the update.
    static final String SETUP = "setup";
    static final String CREATION = "creation";
    static final String UPDATE = "update";
    // The update's own messages, and any attach in its window (a member refusing a delta asks its parent
    // for the full data with one). Beats and the replicas' pointer refreshes would have been sent without
    // an update, so they are shown in the window's breakdown but not charged to the update.
    private static final Set<String> THE_UPDATE = Set.of("update", "arrange");
    // Building the tree: each replica's first copy, its first publish (which lets later replicas find
    // it as a parent), and attaching, seeking and moving. The trees grow side by side until the
    // largest is done, so beats and pointer refreshes accrue for as long as that takes, whatever a
    // tree's own size: they are reported beside, as the upkeep of the window, not as building cost.
    private static final Set<String> BUILDING = Set.of("copy", "publish", "arrange");
    private static final Set<String> UPKEEP = Set.of("beat", "republish", "other");

    @Override
    public String name() {
        return "dissemination";
    }

    @Override
    public String description() {
        return "interdomain crossings of dissemination trees vs optimal and direct fetches (--nodes, --replicas 2,4,..., --spacing-s)";
    }

    @Override
    public void run(ScenarioContext context) throws Exception {
        ScenarioOptions options = context.options();
        int[] counts = replicaCounts(options.getString("replicas", "2,4,8,16,32,64"));
        double spacingS = options.getDouble("spacing-s", 2.0, 0.01, 3600);
        int updateWait = options.getInt("update-wait-s", 5, 1, 3600);
        int ttl = options.getInt("ttl", 32, 1, 255);
        Progress progress = context.progress();
        DolrConfig config = DolrConfig.defaults();

        OverlayBuild build = OverlayBuild.build(options, context.seed(), config, progress, 1100);
        SimulatedOverlay overlay = build.overlay();
        Simulation sim = build.simulation();
        TransitStubTopology topology = build.topology();
        SplittableRandom random = context.random();
        int largest = counts[counts.length - 1];
        if (largest > topology.hostCount() - 1) {
            throw new ScenarioOptionException("replicas", "at most " + (topology.hostCount() - 1) + " replicas fit in " + topology.hostCount() + " nodes");
        }

        byte[] original = page(context.seed(), "version 1 of the front page").getBytes(StandardCharsets.UTF_8);
        CrossingTally tally = new CrossingTally(topology, sim::now, config.republishInterval().dividedBy(2));
        overlay.network().observe(tally);
        List<TreeGrowth> trees = new ArrayList<>();
        List<Id> guids = new ArrayList<>();
        for (int r : counts) {
            int root = randomHost(topology, random);
            Id guid = Id.hash("dissemination/object/" + r);
            tally.track(guid);
            guids.add(guid);
            trees.add(new TreeGrowth(overlay, topology, guid, root, original, 1, ttl));
        }
        // Let each primary's publish land before the first replica looks for it.
        sim.runFor(Duration.ofSeconds(2).toNanos());
        tally.phase(CREATION);

        progress.begin("growing trees of " + joined(counts) + " replicas", largest);
        long spacing = (long) (spacingS * 1e9);
        for (int j = 0; j < largest; j++) {
            for (int i = 0; i < counts.length; i++) {
                if (j < counts[i]) {
                    trees.get(i).add(newMember(topology, trees.get(i), random));
                }
            }
            sim.runFor(spacing);
            progress.step();
        }
        // The last copies and attaches finish.
        sim.runFor(config.locateDeadline().toNanos());
        progress.finish();

        List<TreeCost> costs = new ArrayList<>();
        List<Integer> unattached = new ArrayList<>();
        for (TreeGrowth t : trees) {
            costs.add(TreeCost.of(topology, t.root(), t.members(), t.edges()));
            unattached.add(t.unattached());
        }

        // The next version of the page: a new headline, the rest as before.
        byte[] update = page(context.seed(), "version 2 of the front page, with breaking news").getBytes(StandardCharsets.UTF_8);
        TreeStats before = treeStats(overlay);
        tally.phase(UPDATE);
        boolean published = true;
        for (TreeGrowth t : trees) {
            published &= t.publishUpdate(update, 2);
        }
        sim.runFor(Duration.ofSeconds(updateWait).toNanos());
        TreeStats after = treeStats(overlay);
        long updatesSent = after.fullSent() + after.deltasSent() - before.fullSent() - before.deltasSent();

        ResultJson result = new ResultJson()
                .put("scenario", name())
                .put("seed", context.seed())
                .put("nodes", (long) topology.hostCount())
                .put("stubs", (long) topology.stubCount())
                .put("spacing_s", spacingS)
                .put("update_wait_s", (double) updateWait);
        ResultJson.ObjectList rows = result.objects("rows");
        boolean targetMet = published;
        boolean reachedAll = published;
        double maxRatio = 0;
        long unattachedAll = 0;
        long notUpdatedAll = 0;
        List<CrossingTally.Count> creation = new ArrayList<>();
        for (int i = 0; i < counts.length; i++) {
            TreeCost c = costs.get(i);
            TreeGrowth t = trees.get(i);
            int reached = t.holding(update);
            reachedAll &= reached == t.members().size();
            targetMet &= meetsTarget(c.ratio(), unattached.get(i), reached, t.members().size());
            maxRatio = Math.max(maxRatio, c.ratio());
            unattachedAll += unattached.get(i);
            notUpdatedAll += t.members().size() - reached;
            Id guid = guids.get(i);
            CrossingTally.Count built = tally.totalIn(guid, CREATION, BUILDING);
            CrossingTally.Count pushed = tally.totalIn(guid, UPDATE, THE_UPDATE);
            creation.add(built);
            ResultJson row = rows.add();
            row.put("replicas", (long) counts[i])
                    .put("crossings", (long) c.crossings())
                    .put("optimal_crossings", (long) c.optimal())
                    .put("direct_crossings", (long) c.direct())
                    .put("ratio", c.ratio())
                    .put("member_stubs", (long) c.memberStubs())
                    .put("inter_stub_edges", (long) c.interStubEdges())
                    .put("unattached", (long) unattached.get(i))
                    .put("failed_copies", (long) t.failedCopies())
                    .put("local_parent_missed", (long) t.localParentMissed())
                    .put("update_reached", (long) reached)
                    .put("members", (long) t.members().size())
                    .put("creation_crossings", built.crossings())
                    .put("creation_messages", built.messages())
                    .put("creation_window_upkeep_crossings", tally.totalIn(guid, CREATION, UPKEEP).crossings())
                    .put("update_crossings_measured", pushed.crossings())
                    .put("update_messages_measured", pushed.messages())
                    .put("primary_publish_crossings", tally.total(guid, SETUP).crossings());
            kinds(row.object("creation_crossings_by_category"), tally.byCategory(guid, CREATION));
            kinds(row.object("creation_crossings_by_kind"), tally.byKind(guid, CREATION));
            kinds(row.object("update_window_crossings_by_kind"), tally.byKind(guid, UPDATE));
        }
        result.put("max_ratio", maxRatio)
                .put("target_met", targetMet)
                .put("update_reached_all", reachedAll)
                .put("replicas_unattached", unattachedAll)
                .put("replicas_not_updated", notUpdatedAll)
                // Also in each row; here in replica-count order, for the paper report's table.
                .put("creation_crossings", creation.stream().mapToLong(CrossingTally.Count::crossings).toArray())
                .put("virtual_seconds", sim.now() / 1e9)
                .put("simulated_events", sim.eventsRun())
                .put("messages", overlay.network().messagesSent())
                .put("update_object_bytes", (long) update.length)
                .put("update_messages", updatesSent)
                .put("update_bytes_full", updatesSent * update.length)
                .put("update_bytes_delta", after.fullBytesSent() + after.deltaBytesSent() - before.fullBytesSent() - before.deltaBytesSent())
                .put("update_deltas_sent", after.deltasSent() - before.deltasSent())
                .put("update_full_sent", after.fullSent() - before.fullSent())
                .put("update_deltas_refused", after.deltasRefused() - before.deltasRefused());
        // Upkeep shared by every object (Bloom adverts, pings, routing tables) while the trees grew: not
        // charged to any tree, shown so that nothing the network carried goes uncounted.
        kinds(result.object("creation_unattributed_crossings_by_kind"), tally.unattributed(CREATION));
        result.object("targets").put("ratio_max", TARGET_RATIO).put("replicas_unattached", 0L).put("replicas_not_updated", 0L);
        result.write(context.output("result.json"));

        writeCsv(context, counts, costs, creation);
        chart(context, counts, costs, creation);
        System.out.printf("dissemination: crossings/optimal %s (target <= %.1f); creation crossings %s; unattached %d; "
                        + "update reached every replica: %s; target met: %s%n",
                ratios(costs), TARGET_RATIO, creationList(creation), unattachedAll, reachedAll, targetMet);
    }

    /**
     * Whether one replica count meets the target: its tree within {@link #TARGET_RATIO} of the
     * optimum, and every replica both attached and holding the update. A replica left out of the tree
     * would make the tree look cheaper than one that served it, so it fails the target outright.
     */
    static boolean meetsTarget(double ratio, int unattached, int reached, int members) {
        return ratio <= TARGET_RATIO && unattached == 0 && reached == members;
    }

    private static void kinds(ResultJson out, Map<String, CrossingTally.Count> byKind) {
        byKind.entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> out.object(e.getKey())
                .put("messages", e.getValue().messages())
                .put("crossings", e.getValue().crossings()));
    }

    private static String creationList(List<CrossingTally.Count> creation) {
        StringBuilder sb = new StringBuilder();
        for (CrossingTally.Count c : creation) {
            sb.append(sb.length() == 0 ? "" : ", ").append(c.crossings());
        }
        return sb.toString();
    }

    /** Every live node's tree counters, summed. */
    private static TreeStats treeStats(SimulatedOverlay overlay) {
        long fs = 0, fb = 0, ds = 0, db = 0, da = 0, dr = 0, c = 0;
        for (int v : overlay.liveVertices()) {
            TreeStats s = overlay.node(v).treeStats();
            fs += s.fullSent();
            fb += s.fullBytesSent();
            ds += s.deltasSent();
            db += s.deltaBytesSent();
            da += s.deltasApplied();
            dr += s.deltasRefused();
            c += s.corruptUpdates();
        }
        return new TreeStats(fs, fb, ds, db, da, dr, c);
    }

    /**
     * A realistic object: a news front page of about 24 KB, the same for a seed but for its headline,
     * so two versions differ in one small part as most edits to a page do.
     */
    static String page(long seed, String headline) {
        String[] words = {"market", "council", "weather", "match", "report", "city", "school", "river", "festival", "budget",
            "election", "science", "museum", "train", "harbour", "review", "season", "police", "hospital", "garden"};
        SplittableRandom r = new SplittableRandom(seed);
        StringBuilder b = new StringBuilder("<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Riptide Gazette</title>"
                + "<link rel=\"stylesheet\" href=\"/style.css\"></head>\n<body>\n<header><h1>" + headline + "</h1></header>\n<main>\n");
        for (int i = 0; i < 120; i++) {
            b.append("<article id=\"story-").append(i).append("\"><h2><a href=\"/story/").append(i).append("\">");
            for (int w = 0; w < 5; w++) {
                b.append(w == 0 ? "" : " ").append(words[r.nextInt(words.length)]);
            }
            b.append("</a></h2><p>");
            for (int w = 0; w < 18; w++) {
                b.append(w == 0 ? "" : " ").append(words[r.nextInt(words.length)]);
            }
            b.append(".</p></article>\n");
        }
        return b.append("</main>\n<footer>&copy; Riptide Gazette</footer>\n</body></html>\n").toString();
    }

    /** Parses "2,4,8" into distinct positive counts in increasing order. */
    static int[] replicaCounts(String text) {
        TreeSet<Integer> counts = new TreeSet<>();
        for (String part : text.split(",")) {
            try {
                int n = Integer.parseInt(part.strip());
                if (n < 1) {
                    throw new ScenarioOptionException("replicas", "counts must be positive, got " + n);
                }
                counts.add(n);
            } catch (NumberFormatException e) {
                throw new ScenarioOptionException("replicas", "expected comma-separated counts, got '" + text + "'");
            }
        }
        return counts.stream().mapToInt(Integer::intValue).toArray();
    }

    private static int randomHost(TransitStubTopology topology, SplittableRandom random) {
        int stub = random.nextInt(topology.stubCount());
        return topology.firstHost(stub) + random.nextInt(topology.stubSize(stub));
    }

    /** A random node of a random stub that is not yet in the tree. */
    private static int newMember(TransitStubTopology topology, TreeGrowth tree, SplittableRandom random) {
        while (true) {
            int v = randomHost(topology, random);
            if (!tree.isMember(v)) {
                return v;
            }
        }
    }

    private static void writeCsv(ScenarioContext context, int[] counts, List<TreeCost> costs, List<CrossingTally.Count> creation)
            throws Exception {
        try (CsvWriter csv = new CsvWriter(context.output("crossings.csv"),
                List.of("replicas", "crossings", "optimal_crossings", "direct_crossings", "ratio", "member_stubs", "creation_crossings"))) {
            for (int i = 0; i < counts.length; i++) {
                TreeCost c = costs.get(i);
                csv.row((long) counts[i], (long) c.crossings(), (long) c.optimal(), (long) c.direct(), c.ratio(), (long) c.memberStubs(),
                        creation.get(i).crossings());
            }
        }
    }

    private static void chart(ScenarioContext context, int[] counts, List<TreeCost> costs, List<CrossingTally.Count> creation)
            throws Exception {
        double[] x = new double[counts.length];
        double[] tree = new double[counts.length];
        double[] optimal = new double[counts.length];
        double[] direct = new double[counts.length];
        double[] built = new double[counts.length];
        for (int i = 0; i < counts.length; i++) {
            built[i] = creation.get(i).crossings();
            x[i] = counts[i];
            tree[i] = costs.get(i).crossings();
            optimal[i] = costs.get(i).optimal();
            direct[i] = costs.get(i).direct();
        }
        new Charts().line(context.output("crossings.png"), "Interdomain crossings to push one update", "replicas",
                "stub uplink crossings",
                List.of(new Series("dissemination tree", x, tree), new Series("optimal", x, optimal),
                        new Series("direct from the root", x, direct)));
        // Building costs far more than one update (whole copies, publishes, seeks), so its own chart
        // keeps the per-update lines readable.
        new Charts().line(context.output("creation-crossings.png"), "Interdomain crossings to build the tree", "replicas",
                "stub uplink crossings",
                List.of(new Series("building the tree", x, built), new Series("one update down the tree", x, tree)));
    }

    private static String joined(int[] counts) {
        StringBuilder sb = new StringBuilder();
        for (int c : counts) {
            sb.append(sb.length() == 0 ? "" : ", ").append(c);
        }
        return sb.toString();
    }

    private static String ratios(List<TreeCost> costs) {
        StringBuilder sb = new StringBuilder();
        for (TreeCost c : costs) {
            sb.append(sb.length() == 0 ? "" : ", ").append(String.format("%.2f", c.ratio()));
        }
        return sb.toString();
    }
}
