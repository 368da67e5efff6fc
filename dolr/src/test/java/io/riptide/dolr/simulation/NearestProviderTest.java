package io.riptide.dolr.simulation;

import static io.riptide.dolr.simulation.OverlayFixture.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.DolrConfig;
import io.riptide.dolr.OverlayApplication;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.location.LocationMessages.PointerCopy;
import io.riptide.dolr.location.LocationMessages.PointerRecord;
import io.riptide.dolr.location.PointerStore;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A pointer holder knows each provider's distance from itself, not from the requester. Where the
 * holder is far from the requester and its two pointers are close enough in distance for that to
 * matter, it names both to the requester, which measures them and goes to its own nearest.
 */
class NearestProviderTest {
    private static final int NODES = 200;
    private static final int GROUPS = 4;

    @Test
    void aFarHolderWithTwoPointersLetsTheRequesterPickItsNearestProvider() {
        SimulatedOverlay overlay = OverlayFixture.settled(41, NODES, GROUPS, DolrConfig.defaults().withBloom(false),
                v -> OverlayApplication.NONE);
        run(overlay, Duration.ofSeconds(60));
        Id service = Id.hash("nearest-provider-service");
        OverlayNode near = overlay.node(8); // group 0, the requester's
        OverlayNode far = overlay.node(10); // group 2
        near.offerService(service);
        far.offerService(service);
        run(overlay, Duration.ofSeconds(5));

        // A requester of group 0; the first hop of its route outside the group holds the pointers, and
        // the hops before it none (they would answer first).
        int requester = 4;
        OverlayNode at = overlay.node(requester);
        while (overlay.vertexOf(at.self().id()) % GROUPS == 0) {
            at.pointers().remove(service, near.self().id());
            at.pointers().remove(service, far.self().id());
            NodeHandle next = at.nextHop(service);
            assertTrue(next != null, "the route leaves group 0 before its root");
            at = overlay.node(overlay.vertexOf(next.id()));
        }
        OverlayNode holder = at;
        // The holder believes the far provider nearer to itself than the requester's own provider.
        PointerStore pointers = holder.pointers();
        long expires = overlay.simulation().now() + Duration.ofMinutes(1).toNanos();
        pointers.remove(service, near.self().id());
        pointers.remove(service, far.self().id());
        pointers.put(service, far.self(), Duration.ofMillis(5).toNanos(), expires);
        pointers.put(service, near.self(), Duration.ofMillis(40).toNanos(), expires);

        LocateResult r = OverlayFixture.locate(overlay, requester, service, 16, false);
        assertTrue(r.found(), "located: " + r);
        assertEquals(near.self().id(), r.replica().id(), "the provider in the requester's own group");
        assertEquals(1, overlay.node(requester).locateStats().chosenByRequester());
    }

    @Test
    void aPointerCopiedFromAFarNodeIsAsFarAsTheReplicaIsFromTheSenderPlusTheSender() {
        SimulatedOverlay overlay = OverlayFixture.settled(42, NODES, GROUPS);
        run(overlay, Duration.ofSeconds(30));
        OverlayNode receiver = overlay.node(0); // group 0
        OverlayNode sender = overlay.node(receiver.routingTable().all().stream()
                .filter(h -> overlay.vertexOf(h.id()) % GROUPS != 0).findFirst().map(h -> overlay.vertexOf(h.id())).orElseThrow());
        NodeHandle replica = overlay.node(5).self(); // group 1
        Id guid = Id.hash("copied-pointer");
        long senderRtt = receiver.peers().distance(sender.self().id());
        assertTrue(senderRtt > 0, "the receiver measured the sender");

        receiver.onMessage(sender.self(), new PointerCopy(List.of(new PointerRecord(guid, replica, 1_000_000L, 60_000))));
        List<PointerStore.Pointer> stored = receiver.pointers().lookup(guid, overlay.simulation().now());
        assertEquals(1, stored.size());
        assertEquals(1_000_000L + senderRtt / 2, stored.get(0).distanceNanos(),
                "a millisecond from the sender, and the sender half a round trip from here");
    }

    @Test
    void aHolderWithPointersToSeveralProvidersMeasuresThemInsteadOfTrustingTheirPaths() {
        SimulatedOverlay overlay = OverlayFixture.settled(43, NODES, GROUPS, DolrConfig.defaults().withBloom(false),
                v -> OverlayApplication.NONE);
        run(overlay, Duration.ofSeconds(30));
        OverlayNode holder = overlay.node(0); // group 0
        OverlayNode sender = overlay.node(holder.routingTable().all().stream()
                .filter(h -> overlay.vertexOf(h.id()) % GROUPS != 0).findFirst().map(h -> overlay.vertexOf(h.id())).orElseThrow());
        NodeHandle near = overlay.node(4).self(); // group 0, the holder's
        NodeHandle far = overlay.node(6).self(); // group 2
        Id guid = Id.hash("two-providers");
        Id single = Id.hash("one-provider");
        long inflated = Duration.ofMillis(400).toNanos();

        // A copy from the root says the near provider is 400 ms away (the root's own path to it plus
        // the hop back); the far provider's pointer came by a short path.
        holder.onMessage(sender.self(), new PointerCopy(List.of(
                new PointerRecord(guid, far, 1_000_000L, 60_000),
                new PointerRecord(guid, near, inflated, 60_000),
                new PointerRecord(single, near, inflated, 60_000))));
        run(overlay, Duration.ofSeconds(2));

        List<PointerStore.Pointer> stored = holder.pointers().lookup(guid, overlay.simulation().now());
        assertEquals(near.id(), stored.get(0).replica().id(), "the measured provider first: " + stored);
        long measured = holder.peers().distance(near.id());
        assertTrue(measured > 0, "the holder measured the near provider");
        assertEquals(measured / 2, stored.get(0).distanceNanos());
        assertTrue(holder.peers().distance(far.id()) > measured, "and the far one is farther");
        assertEquals(inflated + holder.peers().distance(sender.self().id()) / 2, holder.pointers().lookup(single, overlay.simulation().now()).get(0).distanceNanos(),
                "a lone pointer needs no order and costs no probe");
    }
}
