package io.riptide.proxy.front;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.codec.http.HttpMethod;
import java.net.URI;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** RFC 9111 §4.4: which methods invalidate, and which Location / Content-Location targets may be invalidated with them. */
class UnsafeMethodsTest {
    private static final URI TARGET = URI.create("http://shop.example:8080/cart/items");

    @Test
    void everyMethodButTheSafeOnesMayChangeTheTarget() {
        for (HttpMethod m : new HttpMethod[] {HttpMethod.POST, HttpMethod.PUT, HttpMethod.DELETE, HttpMethod.PATCH, new HttpMethod("PURGE")}) {
            assertTrue(UnsafeMethods.isUnsafe(m), m.name());
        }
        for (HttpMethod m : new HttpMethod[] {HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS, HttpMethod.TRACE}) {
            assertFalse(UnsafeMethods.isUnsafe(m), m.name());
        }
    }

    @Test
    void onlySameOriginLocationsAreInvalidated() {
        assertEquals(Optional.of(URI.create("http://shop.example:8080/cart/items/7")), UnsafeMethods.sameOrigin(TARGET, "items/7"));
        assertEquals(Optional.of(URI.create("http://shop.example:8080/cart")), UnsafeMethods.sameOrigin(TARGET, "/cart"));
        assertEquals(Optional.of(URI.create("http://SHOP.example:8080/x")), UnsafeMethods.sameOrigin(TARGET, "http://SHOP.example:8080/x"));
        assertEquals(Optional.empty(), UnsafeMethods.sameOrigin(TARGET, "http://other.example:8080/cart"), "another host");
        assertEquals(Optional.empty(), UnsafeMethods.sameOrigin(TARGET, "http://shop.example/cart"), "another port");
        assertEquals(Optional.empty(), UnsafeMethods.sameOrigin(TARGET, "https://shop.example:8080/cart"), "another scheme");
        assertEquals(Optional.empty(), UnsafeMethods.sameOrigin(TARGET, "http://bad host/"), "not a URI");
    }
}
