package io.riptide.core.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Hosts as browsers read them; the cases are from the WHATWG URL Standard's test data (urltestdata.json). */
class UrlHostTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        "0177.0.0.1, 127.0.0.1",
        "0x7f.1, 127.0.0.1",
        "0x7F000001, 127.0.0.1",
        "2130706433, 127.0.0.1",
        "127.1, 127.0.0.1",
        "127.0.0.1., 127.0.0.1",
        "0Xc0.0250.01, 192.168.0.1",
        "%30%78%63%30%2e%30%32%35%30.01, 192.168.0.1",
        "169.254.43518, 169.254.169.254",
        "0251.0376.0251.0376, 169.254.169.254",
        "10.0.0.1, 10.0.0.1",
        "0x, 0.0.0.0",
        "EXAMPLE.com, example.com",
        "example.com., example.com.",
        "my_site.example, my_site.example",
        "123abc.example, 123abc.example",
        "[::1], [::1]",
        "[0:0:0:0:0:0:0:1], [::1]",
        "[FE80::1], [fe80::1]",
    })
    void readsHostsAsBrowsersDo(String host, String canonical) {
        assertEquals(canonical, UrlHost.canonical(host));
    }

    @ParameterizedTest
    @ValueSource(strings = {"4294967296", "0x100000000", "256.0.0.1", "1.2.3.4.5", "1.2.3.09", "foo.09", "foo.0x",
            "0..0x300", "a b", "ex%00ample", "a%2fb", "a<b", "[::1", "[1.2.3.4]", "[fe80::1%25eth0]", "", "%20"})
    void refusesWhatBrowsersRefuse(String host) {
        assertThrows(IllegalArgumentException.class, () -> UrlHost.canonical(host));
    }

    @org.junit.jupiter.api.Test
    void mapsInternationalNamesToAscii() {
        assertEquals("xn--fiq228c.com", UrlHost.canonical("中文.com"));
        assertEquals("xn--fiq228c.com", UrlHost.canonical("%E4%B8%AD%E6%96%87.com"));
    }
}
