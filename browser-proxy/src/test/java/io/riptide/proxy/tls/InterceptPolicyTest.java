package io.riptide.proxy.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code --intercept}: all, or exact names, *.domains and IP literals; bad values refused with what is accepted. */
class InterceptPolicyTest {
    @Test
    void nothingIsInterceptedByDefault() {
        InterceptPolicy none = InterceptPolicy.parse(List.of());
        assertFalse(none.any());
        assertFalse(none.intercepts("example.org"));
    }

    @Test
    void allInterceptsEveryHost() {
        InterceptPolicy all = InterceptPolicy.parse(List.of("ALL"));
        assertTrue(all.intercepts("example.org"));
        assertTrue(all.intercepts("127.0.0.1"));
        assertEquals("all", all.toString());
    }

    @Test
    void exactNamesSuffixesAndAddresses() {
        InterceptPolicy p = InterceptPolicy.parse(List.of("Example.org, *.cdn.example", "127.0.0.1", "[::1]"));
        assertTrue(p.intercepts("example.org"));
        assertTrue(p.intercepts("EXAMPLE.ORG."), "case and a trailing dot do not matter");
        assertFalse(p.intercepts("www.example.org"), "an exact name is not its subdomains");
        assertTrue(p.intercepts("a.cdn.example"));
        assertTrue(p.intercepts("a.b.cdn.example"));
        assertFalse(p.intercepts("cdn.example"), "*.domain is its subdomains, as a wildcard certificate");
        assertFalse(p.intercepts("evilcdn.example"));
        assertTrue(p.intercepts("127.0.0.1"));
        assertTrue(p.intercepts("0:0:0:0:0:0:0:1"), "one IPv6 address however it is written");
        assertTrue(p.intercepts("::1"));
        assertFalse(p.intercepts("127.0.0.2"));
        assertTrue(InterceptPolicy.parse(List.of("bücher.example")).intercepts("xn--bcher-kva.example"), "IDN as punycode");
    }

    @Test
    void badValuesAreRefusedWithWhatIsAccepted() {
        assertEquals("'all' intercepts every host and cannot be combined with a list, got all,example.org",
                assertThrows(IllegalArgumentException.class, () -> InterceptPolicy.parse(List.of("all,example.org"))).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> InterceptPolicy.parse(List.of("a.example,,b.example")))
                .getMessage().contains("an empty host"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> InterceptPolicy.parse(List.of("www.*.example")))
                .getMessage().contains("*.example.org"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> InterceptPolicy.parse(List.of("https://example.org/")))
                .getMessage().contains("is not a host name, *.domain or IP address"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> InterceptPolicy.parse(List.of("exa mple.org")))
                .getMessage().contains("is not a host name"));
    }
}
