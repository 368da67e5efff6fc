package io.riptide.simulator.hostile;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.MessageHandler;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.location.LocationMessages.FailureReason;
import io.riptide.dolr.location.LocationMessages.ListReplicas;
import io.riptide.dolr.location.LocationMessages.Locate;
import io.riptide.dolr.location.LocationMessages.LocateFailed;
import io.riptide.dolr.location.LocationMessages.ObjectDelivery;
import io.riptide.dolr.location.LocationMessages.Publish;
import io.riptide.dolr.location.LocationMessages.ReadReplica;
import io.riptide.dolr.location.LocationMessages.ReplicaRead;
import io.riptide.dolr.routing.RoutingMessages.Hop;
import io.riptide.dolr.routing.RoutingMessages.HopAck;
import io.riptide.dolr.routing.RoutingMessages.Routed;
import java.util.List;
import java.util.function.Function;

/**
 * A hostile node. Membership, Bloom filters and everything else reach the shipped node untouched, so
 * it keeps its places in others' routing state; location is subverted. Every hop it is handed is
 * acknowledged (so the sender does not route around it) and then, for a locate, one of: dropped,
 * misrouted to a random leaf-set member, withheld (answered NOT_FOUND as if it were the root), or
 * answered with forged bytes; a publish passing through is dropped and replaced by a false pointer
 * naming the hostile node itself, which it then answers with forged bytes or nothing; a replica
 * listing is dropped. The choice is drawn per message from the node's seeded randomness.
 */
public final class HostilePeer implements MessageHandler {
    private final Env env;
    private final OverlayNode node;
    private final Function<Id, byte[]> forgery;
    private final HostileTally tally;
    // Once per GUID: two hostile nodes on each other's publish routes would otherwise answer each other's false pointer for ever.
    private final java.util.Set<Id> claimed = new java.util.HashSet<>();

    /** {@code forgery}: the bytes it answers a read of a GUID with (a tampered copy, say). */
    public HostilePeer(Env env, OverlayNode node, Function<Id, byte[]> forgery, HostileTally tally) {
        this.env = env;
        this.node = node;
        this.forgery = forgery;
        this.tally = tally;
    }

    @Override
    public void onMessage(NodeHandle from, WireMessage message) {
        if (!(message instanceof Hop hop) || !subverts(hop.inner())) {
            node.onMessage(from, message);
            return;
        }
        env.send(from.address(), new HopAck(hop.hopId()));
        WireMessage inner = hop.inner();
        if (inner instanceof Routed routed) {
            if (routed.payload() instanceof Publish publish) {
                tally.publishesDropped++;
                if (!publish.withdraw() && claimed.add(publish.guid())) {
                    node.publish(publish.guid()); // a false pointer: this node, which holds nothing
                    tally.falsePointers++;
                }
                return;
            }
            if (routed.payload() instanceof Locate locate) {
                onLocate(locate, routed);
                return;
            }
            tally.dropped++; // a replica listing
            return;
        }
        onLocate(inner instanceof ObjectDelivery d ? d.request() : (Locate) inner, null);
    }

    private static boolean subverts(WireMessage inner) {
        if (inner instanceof Routed routed) {
            WireMessage p = routed.payload();
            return p instanceof Locate || p instanceof Publish || p instanceof ListReplicas;
        }
        return inner instanceof ObjectDelivery || inner instanceof Locate;
    }

    private void onLocate(Locate locate, Routed routed) {
        int choice = env.random().nextInt(4);
        if (choice == 1 && routed != null) {
            List<NodeHandle> members = node.leafSet().members();
            if (!members.isEmpty()) {
                tally.misrouted++;
                NodeHandle wrong = members.get(env.random().nextInt(members.size()));
                env.send(wrong.address(), new Hop(env.random().nextLong(), routed.nextHop(0)));
                return;
            }
        }
        if (choice == 2) {
            tally.withheld++;
            env.send(locate.requester().address(), new LocateFailed(locate.requestId(), locate.guid(), FailureReason.NOT_FOUND, locate.hops()));
            return;
        }
        if (choice == 3 && locate.payload() instanceof ReadReplica) {
            tally.forgedSent++;
            env.send(locate.requester().address(), new ReplicaRead(locate.requestId(), locate.guid(), locate.hops(), forgery.apply(locate.guid())));
            return;
        }
        tally.dropped++;
    }
}
