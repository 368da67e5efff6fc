package io.riptide.simulator.placement;

import io.riptide.simulator.topology.TransitStubTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Who takes part in a placement-load run: the node holding the object's primary copy, and for each
 * client stub its cache manager and its clients (distinct nodes, none in the primary's stub).
 */
public record LoadSetup(int primary, List<ClientStub> stubs) {
    /** One stub the load comes from: its cache manager's node and its clients' nodes. */
    public record ClientStub(int stub, int manager, List<Integer> clients) {
    }

    public LoadSetup {
        stubs = List.copyOf(stubs);
    }

    /**
     * Draws a setup from {@code random}: the primary on a random host of a random stub, then
     * {@code clientStubs} other stubs, each with a random manager and {@code clientsPerStub} random
     * clients. The topology must have enough stubs and hosts (see {@link #fits}).
     */
    public static LoadSetup choose(TransitStubTopology topology, int clientStubs, int clientsPerStub, SplittableRandom random) {
        if (!fits(topology, clientStubs, clientsPerStub)) {
            throw new IllegalArgumentException("topology too small for " + clientStubs + " stubs of " + clientsPerStub + " clients");
        }
        List<Integer> order = shuffled(topology.stubCount(), random);
        int primaryStub = order.get(0);
        int primary = topology.firstHost(primaryStub) + random.nextInt(topology.stubSize(primaryStub));
        List<ClientStub> stubs = new ArrayList<>();
        for (int s : order) {
            if (s == primaryStub || topology.stubSize(s) < clientsPerStub + 1) {
                continue;
            }
            if (stubs.size() == clientStubs) {
                break;
            }
            List<Integer> hosts = shuffled(topology.stubSize(s), random);
            List<Integer> clients = new ArrayList<>();
            for (int i = 1; i <= clientsPerStub; i++) {
                clients.add(topology.firstHost(s) + hosts.get(i));
            }
            stubs.add(new ClientStub(s, topology.firstHost(s) + hosts.get(0), clients));
        }
        return new LoadSetup(primary, stubs);
    }

    /** Whether {@code topology} has {@code clientStubs} stubs besides one more, each with room for a manager and the clients. */
    public static boolean fits(TransitStubTopology topology, int clientStubs, int clientsPerStub) {
        int roomy = 0;
        for (int s = 0; s < topology.stubCount(); s++) {
            if (topology.stubSize(s) >= clientsPerStub + 1) {
                roomy++;
            }
        }
        // One stub may be spent on the primary, roomy or not.
        return topology.stubCount() >= clientStubs + 1 && roomy >= clientStubs + 1;
    }

    /** Every client, stub by stub. */
    public List<Integer> clients() {
        List<Integer> all = new ArrayList<>();
        stubs.forEach(s -> all.addAll(s.clients()));
        return all;
    }

    private static List<Integer> shuffled(int n, SplittableRandom random) {
        List<Integer> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(i);
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = list.get(i);
            list.set(i, list.get(j));
            list.set(j, t);
        }
        return list;
    }
}
