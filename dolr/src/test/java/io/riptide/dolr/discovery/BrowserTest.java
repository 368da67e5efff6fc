package io.riptide.dolr.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.discovery.Announcement.Role;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.jmdns.JmDNS;
import javax.jmdns.ServiceEvent;
import javax.jmdns.ServiceInfo;
import javax.jmdns.ServiceListener;
import org.junit.jupiter.api.Test;

/**
 * What a browser keeps of what anyone on the link announces, fed fabricated JmDNS events (no
 * multicast): bounded, the host only where the record came from, and withdrawn nodes let go.
 */
class BrowserTest {
    private final List<Announcement> heard = new ArrayList<>();
    private final List<Announcement> lost = new ArrayList<>();
    /** The source address of each fabricated record, by instance name. */
    private final Map<String, String> sourceOf = new HashMap<>();
    private final Browser browser = new Browser(null, new MdnsInterface("lo", InetAddress.getLoopbackAddress()), heard::add,
            lost::add, info -> List.of(sourceOf.get(info.getName())));
    private final ServiceListener listener = browser.listener();

    @Test
    void tenThousandAnnouncementsKeepEveryListAtItsCap() {
        for (int i = 0; i < 10_000; i++) {
            String name = "flood " + i;
            String source = "10.1." + (i / 250) + "." + (i % 250 + 1); // a different machine each, so only the total cap holds
            listener.serviceAdded(event(name, null));
            listener.serviceResolved(event(name, info(name, source, source, 7000 + i % 1000)));
        }
        for (int i = 0; i < 10_000; i++) {
            listener.serviceAdded(event("never resolved " + i, null));
        }
        assertEquals(Browser.MAX_FOUND, browser.found().size());
        assertEquals(Browser.MAX_FOUND, heard.size(), "the listener heard only of those kept");
        assertEquals(10_000 - Browser.MAX_FOUND, browser.refused(), "the rest refused, and counted");
        assertEquals(Browser.MAX_PENDING, browser.pending());
        assertEquals(10_000 - Browser.MAX_PENDING, browser.pendingDropped());
    }

    @Test
    void oneAddressFillsAtMostItsShare() {
        for (int i = 0; i < 1000; i++) {
            String name = "one machine " + i;
            listener.serviceResolved(event(name, info(name, "10.0.0.66", "10.0.0.66", 7000 + i)));
        }
        listener.serviceResolved(event("a real node", info("a real node", "10.0.0.7", "10.0.0.7", 7101)));
        assertEquals(Browser.MAX_PER_SOURCE + 1, browser.found().size());
        assertTrue(browser.found().stream().anyMatch(a -> a.overlay().equals(new NodeAddress("10.0.0.7", 7101))),
                "a real node still gets in: " + browser.found());
    }

    @Test
    void anAnnouncedHostOtherThanTheSourceIsIgnored() {
        listener.serviceResolved(event("liar", info("liar", "203.0.113.9", "10.0.0.66", 443)));
        listener.serviceResolved(event("liar", info("liar", "203.0.113.9", "10.0.0.66", 443))); // listed again
        assertEquals(List.of(new NodeAddress("10.0.0.66", 443)), browser.found().stream().map(Announcement::overlay).toList(),
                "it can point the proxy only at itself");
        assertEquals(1, browser.hostsIgnored());
    }

    @Test
    void aWithdrawnNodeIsLetGoUnlessAnotherNameStillAnnouncesIt() {
        listener.serviceResolved(event("node", info("node", "10.0.0.7", "10.0.0.7", 7101)));
        listener.serviceResolved(event("copy", info("copy", "10.0.0.7", "10.0.0.7", 7101)));
        listener.serviceResolved(event("other", info("other", "10.0.0.8", "10.0.0.8", 7101)));
        listener.serviceRemoved(event("copy", null));
        assertTrue(lost.isEmpty(), "the address is still announced under another name");
        listener.serviceRemoved(event("node", null));
        listener.serviceRemoved(event("other", null));
        assertEquals(List.of(new NodeAddress("10.0.0.7", 7101), new NodeAddress("10.0.0.8", 7101)),
                lost.stream().map(Announcement::overlay).toList());
        assertTrue(browser.found().isEmpty());
        // A node that moves lets go of its old address.
        listener.serviceResolved(event("node", info("node", "10.0.0.7", "10.0.0.7", 7101)));
        listener.serviceResolved(event("node", info("node", "10.0.0.7", "10.0.0.7", 7102)));
        assertEquals(new NodeAddress("10.0.0.7", 7101), lost.get(2).overlay());
    }

    private ServiceInfo info(String name, String announcedHost, String source, int port) {
        sourceOf.put(name, source);
        Announcement a = new Announcement(Role.NODE, Id.hash(name), new NodeAddress(announcedHost, port), null);
        return ServiceInfo.create(Announcement.SERVICE_TYPE, name, port, 0, 0, a.toTxt());
    }

    private static ServiceEvent event(String name, ServiceInfo info) {
        return new ServiceEvent(BrowserTest.class) {
            @Override
            public JmDNS getDNS() {
                return null;
            }

            @Override
            public String getType() {
                return Announcement.SERVICE_TYPE;
            }

            @Override
            public String getName() {
                return name;
            }

            @Override
            public ServiceInfo getInfo() {
                return info;
            }
        };
    }
}
