package io.riptide.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.discovery.Announcement;
import io.riptide.dolr.discovery.Announcement.Role;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the proxy does with announcements, fed directly (no multicast): seeds in and out, and bounded printing. */
class DiscoveryOptionsTest {
    @Test
    void announcedNodesBecomeDiscoveredSeedsAndLeaveWhenWithdrawnAndWhatIsPrintedIsBounded() throws Exception {
        DiscoveryOptions discovery = new DiscoveryOptions();
        StringWriter printed = new StringWriter();
        discovery.find(List.of(), null, new PrintWriter(printed)); // discovery off: only sets where to print
        List<NodeAddress> added = new ArrayList<>();
        List<NodeAddress> removed = new ArrayList<>();
        discovery.feed(new DiscoveryOptions.Seeds(added::add, removed::add), null);

        List<Announcement> flood = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            Announcement a = new Announcement(Role.NODE, Id.hash("flood " + i), new NodeAddress("10.9." + (i / 250) + "." + (i % 250 + 1),
                    7101), null);
            flood.add(a);
            discovery.announced(a);
        }
        assertEquals(10_000, added.size(), "handed on (AccessNodes bounds what it keeps)");
        assertEquals(DiscoveryOptions.MAX_TOLD, discovery.told(), "remembered as printed: at the cap");
        assertEquals(10_000 - DiscoveryOptions.MAX_TOLD, discovery.untold());
        long lines = printed.toString().lines().count();
        assertEquals(DiscoveryOptions.MAX_TOLD + 1, lines, "one line each up to the cap, then one saying so:\n" + printed);

        discovery.withdrawn(flood.get(0));
        assertEquals(List.of(flood.get(0).overlay()), removed);
        assertEquals(DiscoveryOptions.MAX_TOLD - 1, discovery.told());
        assertTrue(printed.toString().contains("withdrawn from the local network: " + flood.get(0)));
    }
}
