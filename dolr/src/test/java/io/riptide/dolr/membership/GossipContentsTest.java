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
    void aMemberGetsTheWholeSetFirstThenOnlyNewcomersThenBareHeartbeats() {
        GossipContents contents = new GossipContents();
        List<NodeHandle> set = List.of(a, b);
        contents.beginPeriod(set);
        assertEquals(set, contents.forMember(a, set));
        contents.beginPeriod(set);
        assertEquals(List.of(), contents.forMember(a, set), "nothing changed: a bare heartbeat");

        NodeHandle d = node(4);
        List<NodeHandle> changed = List.of(a, b, c, d);
        contents.beginPeriod(changed);
        assertEquals(List.of(c, d), contents.forMember(a, changed), "an old member gets only the newcomers");
        assertEquals(changed, contents.forMember(c, changed), "a newcomer gets the whole set");
        contents.beginPeriod(changed);
        assertEquals(List.of(), contents.forMember(a, changed), "newcomers are told once");
    }

    @Test
    void aNewMemberGetsTheWholeSet() {
        GossipContents contents = new GossipContents();
        List<NodeHandle> set = List.of(a, b);
        contents.beginPeriod(set);
        contents.forMember(a, set);
        List<NodeHandle> changed = List.of(a, b, c);
        contents.beginPeriod(changed);
        assertEquals(changed, contents.forMember(c, changed));
    }

    @Test
    void aMemberThatLeftAndCameBackGetsTheWholeSetAgain() {
        GossipContents contents = new GossipContents();
        List<NodeHandle> set = List.of(a, b);
        contents.beginPeriod(set);
        contents.forMember(b, set);
        contents.beginPeriod(List.of(a));
        contents.beginPeriod(set);
        assertEquals(set, contents.forMember(b, set));
    }

    @Test
    void everyFewPeriodsTheWholeSetGoesAnywaySoALostGossipHeals() {
        GossipContents contents = new GossipContents();
        List<NodeHandle> set = List.of(a, b);
        contents.beginPeriod(set);
        assertEquals(set, contents.forMember(b, set), "the first period");
        int full = 0;
        for (int period = 1; period <= 4 * GossipContents.REFRESH_EVERY; period++) {
            contents.beginPeriod(set);
            if (!contents.forMember(b, set).isEmpty()) {
                full++;
            }
        }
        assertEquals(4, full, "one in every REFRESH_EVERY periods");
    }

    @Test
    void membersAreRefreshedInDifferentPeriods() {
        GossipContents contents = new GossipContents();
        List<NodeHandle> set = List.of(a, b, c);
        contents.beginPeriod(set);
        set.forEach(m -> contents.forMember(m, set));
        java.util.Map<NodeHandle, Integer> refreshedAt = new java.util.HashMap<>();
        for (int period = 1; period <= GossipContents.REFRESH_EVERY; period++) {
            contents.beginPeriod(set);
            for (NodeHandle m : set) {
                if (!contents.forMember(m, set).isEmpty()) {
                    refreshedAt.put(m, period);
                }
            }
        }
        assertEquals(3, refreshedAt.size(), "each member refreshed once a cycle");
        assertEquals(3, new java.util.HashSet<>(refreshedAt.values()).size(), "in periods of its own: " + refreshedAt);
    }
}
