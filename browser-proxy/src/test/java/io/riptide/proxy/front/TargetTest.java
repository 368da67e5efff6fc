package io.riptide.proxy.front;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.riptide.proxy.upstream.Origin;
import org.junit.jupiter.api.Test;

/** Where an absolute-form request goes, its host read as a browser reads it. */
class TargetTest {
    @Test
    void anIpv4AddressSpelledTheOldWayIsTheAddressBrowsersReach() {
        for (String spelled : new String[] {"0177.0.0.1", "0x7f.1", "2130706433", "127.1"}) {
            Target t = Target.parse("http://" + spelled + ":8080/a?b=c");
            assertEquals(new Origin("127.0.0.1", 8080), t.origin(), spelled);
            assertEquals("127.0.0.1:8080", t.hostHeader(), spelled);
            assertEquals("http://127.0.0.1:8080/a?b=c", t.url().toString(), spelled);
            assertEquals("/a?b=c", t.originForm());
        }
    }

    @Test
    void namesAreLowerCasedAndUserInfoIsNeverForwarded() {
        Target t = Target.parse("http://user:secret@Example.COM/x");
        assertEquals(new Origin("example.com", 80), t.origin());
        assertEquals("example.com", t.hostHeader());
        assertEquals("http://example.com/x", t.url().toString());
    }

    @Test
    void aHostJavaNetUriCallsARegistryIsStillReadAsBrowsersDo() {
        Target t = Target.parse("http://my_site.example:81/");
        assertEquals(new Origin("my_site.example", 81), t.origin());
        assertEquals("my_site.example:81", t.hostHeader());
    }

    @Test
    void anUnchangedUrlIsKeptAsSent() {
        Target t = Target.parse("http://example.com/a%20b?q=%41");
        assertEquals("http://example.com/a%20b?q=%41", t.url().toString());
        assertEquals("/a%20b?q=%41", t.originForm());
    }

    @Test
    void hostsBrowsersRefuseAreRefused() {
        for (String bad : new String[] {"http://256.0.0.1/", "http://1.2.3.4.5/", "http://foo.09/", "http://a:99999/"}) {
            assertThrows(IllegalArgumentException.class, () -> Target.parse(bad), bad);
        }
    }
}
