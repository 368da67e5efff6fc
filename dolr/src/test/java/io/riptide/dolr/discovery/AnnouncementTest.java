package io.riptide.dolr.discovery;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.core.crypto.SigningKey;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.discovery.Announcement.Role;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The TXT record a node announces, written and read back; anything incomplete or foreign is ignored whole. */
class AnnouncementTest {
    private final SigningKey provider = SigningKey.generate(new SecureRandom());
    private final Announcement manager = new Announcement(Role.CACHE_MANAGER, Id.hash("cm"), new NodeAddress("10.0.0.7", 7102),
            provider.publicKey());

    @Test
    void aCacheManagersRecordRoundTrips() {
        Map<String, String> txt = manager.toTxt();
        assertEquals("cache-manager", txt.get("role"));
        assertEquals(Id.hash("cm").toHex(), txt.get("id"));
        assertEquals("7102", txt.get("port"));
        assertEquals(provider.publicKey().toString(), txt.get("provider"));
        assertTrue(txt.values().stream().allMatch(v -> v.length() < 256), "every TXT string fits DNS's 255 bytes");
        assertEquals(manager, Announcement.fromTxt(txt, "10.0.0.7").orElseThrow());
        assertTrue(manager.instanceName().startsWith("riptide cache-manager "), manager.instanceName());
    }

    @Test
    void aPlainNodeHasNoProviderAndAMissingHostIsTheAddressTheServiceResolvedTo() {
        Announcement node = new Announcement(Role.NODE, Id.hash("n"), new NodeAddress("10.0.0.8", 7101), null);
        Map<String, String> txt = node.toTxt();
        assertFalse(txt.containsKey("provider"));
        txt.remove("host");
        assertEquals(new NodeAddress("10.0.0.9", 7101), Announcement.fromTxt(txt, "10.0.0.9").orElseThrow().overlay());
    }

    @Test
    void anAnnouncedHostIsTakenOnlyIfTheRecordCameFromIt() {
        Map<String, String> txt = manager.toTxt(); // host 10.0.0.7
        assertEquals(new NodeAddress("192.0.2.1", 7102), Announcement.fromTxt(txt, "192.0.2.1").orElseThrow().overlay(),
                "a host other than the source is ignored: the source stands in for it");
        assertEquals(new NodeAddress("10.0.0.7", 7102), Announcement.read(txt, List.of("192.0.2.1", "10.0.0.7")).orElseThrow()
                .overlay(), "one of several sources");
        Map<String, String> named = with("host", "victim.example.com");
        assertEquals(new NodeAddress("10.0.0.9", 7102), Announcement.fromTxt(named, "10.0.0.9").orElseThrow().overlay(),
                "a name is never taken, nor looked up");
        Map<String, String> v6 = with("host", "fe80:0:0:0:0:0:0:1");
        assertEquals(new NodeAddress("fe80:0:0:0:0:0:0:1", 7102), Announcement.fromTxt(v6, "fe80::1%eth0").orElseThrow().overlay(),
                "the same IPv6 address, written another way");
        assertTrue(Announcement.read(txt, List.of()).isEmpty(), "no source: nothing to check the host against");
    }

    @Test
    void incompleteOrForeignRecordsAreIgnored() {
        for (String key : new String[] {"txtvers", "role", "id", "port"}) {
            Map<String, String> txt = new LinkedHashMap<>(manager.toTxt());
            txt.remove(key);
            assertTrue(Announcement.fromTxt(txt, "10.0.0.9").isEmpty(), "without " + key);
        }
        assertTrue(Announcement.fromTxt(with("txtvers", "2"), null).isEmpty(), "another version");
        assertTrue(Announcement.fromTxt(with("role", "printer"), null).isEmpty(), "an unknown role");
        assertTrue(Announcement.fromTxt(with("id", "xyz"), null).isEmpty(), "a malformed ID");
        assertTrue(Announcement.fromTxt(with("port", "0"), null).isEmpty(), "port 0");
        assertTrue(Announcement.fromTxt(with("port", "70000"), null).isEmpty(), "a port out of range");
        assertTrue(Announcement.fromTxt(with("provider", "ed25519:nope"), null).isEmpty(), "a malformed provider key");
        Map<String, String> noHost = new LinkedHashMap<>(manager.toTxt());
        noHost.remove("host");
        assertTrue(Announcement.fromTxt(noHost, null).isEmpty(), "no host and no address");
    }

    private Map<String, String> with(String key, String value) {
        Map<String, String> txt = new LinkedHashMap<>(manager.toTxt());
        txt.put(key, value);
        return txt;
    }
}
