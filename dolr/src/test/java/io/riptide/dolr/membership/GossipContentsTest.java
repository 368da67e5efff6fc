package io.riptide.dolr.membership;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.core.runtime.NodeHandle;
import java.util.List;
import org.junit.jupiter.api.Test;

class GossipContentsTest {
    private static NodeHandle node(int i) {
        return new NodeHandle(Id.hash("n" + i), NodeAddress.simulated(i));
    }

    private final NodeHandle a = node(1);
    private final NodeHandle b = node(2);
    private final NodeHandle c = node(3);

    @Test
    void aMemberGetsTheWholeSetFirstThenBareHeartbeatsUntilItChanges() {
        GossipContents contents = new GossipContents();
        List<NodeHandle> set = List.of(a, b);
        contents.beginPeriod(set);
        assertEquals(set, contents.forMember(a, set));
        contents.beginPeriod(set);
        assertEquals(List.of(), contents.forMember(a, set));

        List<NodeHandle> changed = List.of(a, b, c);
        contents.beginPeriod(changed);
        assertEquals(changed, contents.forMember(a, changed));
        assertEquals(changed, contents.forMember(c, changed), "a new member gets the whole set");
    }

    @Test
    void everyFewPeriodsTheWholeSetGoesAnywaySoALostGossipHeals() {
        GossipContents contents = new GossipContents();
        List<NodeHandle> set = List.of(a, b);
        int full = 0;
        for (int period = 1; period <= 4 * GossipContents.REFRESH_EVERY; period++) {
            contents.beginPeriod(set);
            if (!contents.forMember(b, set).isEmpty()) {
                full++;
            }
        }
        // The first period, then one in every REFRESH_EVERY.
        assertEquals(1 + 4, full);
    }
}
