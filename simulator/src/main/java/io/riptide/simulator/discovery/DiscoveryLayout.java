package io.riptide.simulator.discovery;

import io.riptide.simulator.topology.TransitStubTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Where the clients and cache managers of the service-discovery experiment sit. The clients fill a
 * few stubs that hang off one transit router; the first manager sits in a stub on another router
 * (far from every client); each later manager sits in one of the client stubs, so it becomes the
 * nearest manager for that stub's clients, and the second is nearer than the first for all of them,
 * as in the paper's Figure 17.
 *
 * @param clients  the vertices that send hints
 * @param managers the manager vertices, in the order they start
 */
public record DiscoveryLayout(int[] clients, int[] managers) {

    /**
     * Chooses a layout with {@code clientStubs} client stubs (so {@code clientStubs + 1} managers) and
     * up to {@code clientsWanted} clients spread evenly over them.
     */
    public static DiscoveryLayout choose(TransitStubTopology topology, int clientsWanted, int clientStubs, SplittableRandom random) {
        int stubs = topology.stubCount();
        List<Integer> routers = new ArrayList<>();
        for (int s = 0; s < stubs; s++) {
            int r = topology.transitRouterOf(s);
            if (!routers.contains(r) && stubsOn(topology, r).size() >= clientStubs) {
                routers.add(r);
            }
        }
        if (routers.isEmpty()) {
            throw new IllegalArgumentException("no transit router has " + clientStubs + " stubs; use fewer client stubs or more nodes");
        }
        int clientRouter = routers.get(random.nextInt(routers.size()));
        List<Integer> near = stubsOn(topology, clientRouter).subList(0, clientStubs);
        List<Integer> far = new ArrayList<>();
        for (int s = 0; s < stubs; s++) {
            if (topology.transitRouterOf(s) != clientRouter) {
                far.add(s);
            }
        }
        if (far.isEmpty()) {
            throw new IllegalArgumentException("every stub hangs off one transit router; the first manager needs a far stub");
        }
        int[] managers = new int[clientStubs + 1];
        managers[0] = pick(topology.hostsInStub(far.get(random.nextInt(far.size()))), random);
        List<Integer> clients = new ArrayList<>();
        for (int i = 0; i < clientStubs; i++) {
            List<Integer> hosts = shuffled(topology.hostsInStub(near.get(i)), random);
            managers[i + 1] = hosts.remove(hosts.size() - 1);
            int want = clientsWanted / clientStubs + (i < clientsWanted % clientStubs ? 1 : 0);
            clients.addAll(hosts.subList(0, Math.min(want, hosts.size())).stream().sorted().toList());
        }
        return new DiscoveryLayout(clients.stream().mapToInt(Integer::intValue).toArray(), managers);
    }

    private static List<Integer> stubsOn(TransitStubTopology topology, int router) {
        List<Integer> out = new ArrayList<>();
        for (int s = 0; s < topology.stubCount(); s++) {
            if (topology.transitRouterOf(s) == router) {
                out.add(s);
            }
        }
        return out;
    }

    private static int pick(int[] hosts, SplittableRandom random) {
        return hosts[random.nextInt(hosts.length)];
    }

    private static List<Integer> shuffled(int[] hosts, SplittableRandom random) {
        List<Integer> list = new ArrayList<>();
        for (int h : hosts) {
            list.add(h);
        }
        for (int i = list.size() - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = list.get(i);
            list.set(i, list.get(j));
            list.set(j, t);
        }
        return list;
    }
}
