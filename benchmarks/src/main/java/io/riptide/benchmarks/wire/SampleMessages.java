package io.riptide.benchmarks.wire;

import io.riptide.benchmarks.fixture.RandomIds;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.location.LocationMessages;
import io.riptide.dolr.membership.MembershipMessages;
import io.riptide.dolr.routing.RoutingMessages;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/** Representative overlay messages, small to large, built reproducibly from a seed. */
public final class SampleMessages {
    /** Routing-table entries in the sample join state: a node in a 10,000-node overlay fills about 48 slots. */
    public static final int JOIN_TABLE_HANDLES = 48;
    /** Leaf-set entries in the sample join state: 8 on each side, the deployment default. */
    public static final int JOIN_LEAF_HANDLES = 16;

    private SampleMessages() {
    }

    /** The sample named {@code name}: {@code hopAck}, {@code routedLocate} or {@code joinState}. */
    public static WireMessage named(String name, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        return switch (name) {
            case "hopAck" -> hopAck(random);
            case "routedLocate" -> routedLocate(random);
            case "joinState" -> joinState(random);
            default -> throw new IllegalArgumentException("no sample message named " + name);
        };
    }

    /** The smallest frame there is, and the most frequent: one per overlay hop. */
    static RoutingMessages.HopAck hopAck(SplittableRandom random) {
        return new RoutingMessages.HopAck(random.nextLong());
    }

    /** A plain locate a few hops into its route: three nested messages and two node handles. */
    static RoutingMessages.Routed routedLocate(SplittableRandom random) {
        Id guid = RandomIds.id(random);
        NodeHandle requester = RandomIds.handle(RandomIds.id(random), random);
        LocationMessages.Locate locate = new LocationMessages.Locate(
                guid, requester, random.nextLong(), 32, 3, 1, new LocationMessages.WhereIs());
        return new RoutingMessages.Routed(guid, requester, 3, TimeUnit.MILLISECONDS.toNanos(42), locate);
    }

    /** A join answer carrying 64 node handles: the largest routine membership message. */
    static MembershipMessages.JoinState joinState(SplittableRandom random) {
        return new MembershipMessages.JoinState(false, handles(random, JOIN_TABLE_HANDLES),
                handles(random, JOIN_LEAF_HANDLES));
    }

    private static List<NodeHandle> handles(SplittableRandom random, int n) {
        List<NodeHandle> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(RandomIds.handle(RandomIds.id(random), random));
        }
        return List.copyOf(out);
    }
}
