package io.riptide.simulator.dissemination;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.dissemination.TreeMessages.Attach;
import io.riptide.dolr.dissemination.TreeMessages.Beats;
import io.riptide.dolr.dissemination.TreeMessages.TreeBeat;
import io.riptide.dolr.location.LocationMessages.PointerCopy;
import io.riptide.dolr.location.LocationMessages.PointerRecord;
import io.riptide.dolr.location.LocationMessages.Publish;
import io.riptide.dolr.routing.RoutingMessages.Hop;
import io.riptide.dolr.routing.RoutingMessages.HopAck;
import io.riptide.dolr.routing.RoutingMessages.Routed;
import io.riptide.simulator.dissemination.CrossingTally.Count;
import io.riptide.simulator.topology.TopologyParams;
import io.riptide.simulator.topology.TransitStubTopology;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Hand-counted crossings of a few messages between the hosts of three stubs. */
class CrossingTallyTest {
    private final TransitStubTopology topology = TransitStubTopology.generate(TopologyParams.forHosts(90).withHostsPerStub(30), 1);
    private final long[] now = {0};
    private final CrossingTally tally = new CrossingTally(topology, () -> now[0], Duration.ofSeconds(30));
    private final Id a = Id.hash("object a");
    private final Id b = Id.hash("object b");

    private int host(int stub, int i) {
        return topology.firstHost(stub) + i;
    }

    private NodeHandle handle(int vertex) {
        return new NodeHandle(Id.hash("node" + vertex), NodeAddress.simulated(vertex));
    }

    @Test
    void aMessageBetweenStubsCrossesTwoUplinksAndOneWithinAStubNone() {
        tally.track(a);
        tally.phase("creation");
        tally.sent(host(0, 0), host(1, 0), new Attach(a, 1)); // out of stub 0, into stub 1: 2
        tally.sent(host(1, 0), host(1, 1), new Attach(a, 1)); // inside stub 1: 0
        tally.sent(host(1, 1), host(1, 1), new Attach(a, 1)); // to itself: 0
        assertEquals(Map.of("Attach", new Count(3, 2)), tally.byKind(a, "creation"));
        assertEquals(new Count(3, 2), tally.total(a, "creation"));
    }

    @Test
    void wrappedMessagesAndTheirAcknowledgementsAreChargedToTheirObject() {
        tally.track(a);
        tally.phase("creation");
        Publish publish = new Publish(a, handle(host(0, 0)), false, 0);
        tally.sent(host(0, 0), host(2, 3), new Hop(7, new Routed(a, handle(host(0, 0)), 0, 0, publish)));
        tally.sent(host(2, 3), host(0, 0), new HopAck(7)); // the ack of hop 7 from host(0, 0)
        tally.sent(host(2, 3), host(0, 0), new HopAck(7)); // a second ack of it is nobody's
        tally.sent(host(2, 3), host(0, 0), new HopAck(8)); // an ack of a hop that carried nothing tracked
        assertEquals(Map.of("Publish", new Count(1, 2), "HopAck(Publish)", new Count(1, 2)), tally.byKind(a, "creation"));
        assertEquals(Map.of("publish", new Count(2, 4)), tally.byCategory(a, "creation"));
        assertEquals(Map.of("HopAck", new Count(2, 4)), tally.unattributed("creation"));
    }

    @Test
    void aReplicasLaterPublishesAreRefreshesChargedApartFromItsFirst() {
        tally.track(a);
        int replica = host(0, 0);
        Publish publish = new Publish(a, handle(replica), false, 0);
        PointerCopy copy = new PointerCopy(List.of(new PointerRecord(a, handle(replica), 1, 1)));
        tally.sent(replica, host(1, 0), new Hop(1, new Routed(a, handle(replica), 0, 0, publish))); // first: 2
        now[0] = Duration.ofSeconds(1).toNanos();
        tally.sent(host(1, 0), host(2, 0), copy); // the first publish's pointer copy: 2
        now[0] = Duration.ofSeconds(60).toNanos();
        tally.sent(replica, host(1, 0), new Hop(2, new Routed(a, handle(replica), 0, 0, publish))); // a refresh: 2
        tally.sent(host(1, 0), replica, new HopAck(2)); // its acknowledgement: 2
        tally.sent(host(1, 0), host(1, 1), copy); // the refresh's pointer copy: 0
        assertEquals(Map.of("Publish", new Count(1, 2), "PointerCopy", new Count(1, 2), "Publish(republish)", new Count(1, 2),
                "HopAck(Publish(republish))", new Count(1, 2), "PointerCopy(republish)", new Count(1, 0)), tally.byKind(a, "setup"));
        assertEquals(Map.of("publish", new Count(2, 4), "republish", new Count(3, 4)), tally.byCategory(a, "setup"));
        assertEquals(new Count(2, 4), tally.totalIn(a, "setup", Set.of("publish")));
    }

    @Test
    void phasesObjectsAndUntrackedMessagesAreKeptApart() {
        tally.track(a);
        tally.track(b);
        tally.sent(host(0, 0), host(1, 0), new Beats(List.of(new TreeBeat(a, 1, List.of())))); // still in "setup"
        tally.phase("creation");
        PointerRecord pa = new PointerRecord(a, handle(host(0, 0)), 1, 1);
        PointerRecord pb = new PointerRecord(b, handle(host(0, 0)), 1, 1);
        PointerRecord untracked = new PointerRecord(Id.hash("other"), handle(host(0, 0)), 1, 1);
        tally.sent(host(0, 1), host(2, 0), new PointerCopy(List.of(pa, pb, untracked))); // both trees pay for it
        tally.sent(host(0, 1), host(2, 0), new Attach(Id.hash("other"), 1));
        tally.phase("update");
        tally.sent(host(0, 0), host(1, 0), new Beats(List.of(new TreeBeat(a, 2, List.of()))));
        tally.sent(host(0, 0), host(1, 0), new Attach(a, 2));
        assertEquals(new Count(1, 2), tally.total(a, "setup"));
        assertEquals(Map.of("PointerCopy", new Count(1, 2)), tally.byKind(a, "creation"));
        assertEquals(Map.of("PointerCopy", new Count(1, 2)), tally.byKind(b, "creation"));
        assertEquals(Map.of("Attach", new Count(1, 2)), tally.unattributed("creation"));
        assertEquals(new Count(2, 4), tally.total(a, "update"));
        assertEquals(new Count(1, 2), tally.totalIn(a, "update", Set.of("arrange", "update")));
        assertEquals(new Count(0, 0), tally.total(b, "update"));
    }
}
