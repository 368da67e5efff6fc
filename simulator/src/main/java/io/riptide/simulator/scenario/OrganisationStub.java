package io.riptide.simulator.scenario;

import io.riptide.simulator.overlay.RandomOrder;
import io.riptide.simulator.topology.TransitStubTopology;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The paper's small organisation: one stub, drawn at random, holding a shared proxy's node, the
 * cache manager's node and the clients (the stub's other hosts, in a random order, up to the number
 * wanted). {@code hosts} is the whole stub in that order: proxy, manager, then clients and the rest.
 */
record OrganisationStub(int stub, int proxy, int manager, List<Integer> clients, List<Integer> hosts) {

    /** Draws the stub and its roles from {@code random}. */
    static OrganisationStub choose(TransitStubTopology topology, SplittableRandom random, int clientsWanted) {
        int stub = random.nextInt(topology.stubCount());
        List<Integer> hosts = RandomOrder.of(topology.hostsInStub(stub), random);
        if (hosts.size() < 3) {
            throw new ScenarioOptionException("nodes", "the clients' stub has only " + hosts.size() + " hosts");
        }
        List<Integer> clients = new ArrayList<>(hosts.subList(2, Math.min(hosts.size(), 2 + clientsWanted)));
        return new OrganisationStub(stub, hosts.get(0), hosts.get(1), clients, hosts);
    }
}
