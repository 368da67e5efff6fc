package io.riptide.proxy.front;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.riptide.proxy.Cidr;
import io.riptide.proxy.ProxyConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a refused client reads names the networks served and the option that adds one. */
class RefusalTextTest {
    @Test
    void theDefaultRefusalNamesLoopback() {
        assertEquals("this proxy serves clients in 127.0.0.0/8, ::1; ask its operator to add your network with --allow-from",
                FrontHandler.refusal(ProxyConfig.defaults()));
    }

    @Test
    void theRefusalListsTheConfiguredNetworks() {
        assertEquals("this proxy serves clients in 10.0.0.0/8, 2001:db8::/32, 192.168.1.7; ask its operator to add your network "
                + "with --allow-from", FrontHandler.refusal(ProxyConfig.builder().allowFrom(List.of(Cidr.parse("10.0.0.0/8"),
                        Cidr.parse("2001:db8::/32"), Cidr.parse("192.168.1.7"))).build()));
    }
}
