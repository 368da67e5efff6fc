package io.riptide.core.object;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.id.Id;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ObjectNamesTest {
    private static final PublicKey P = Samples.PROVIDER.publicKey();
    private static final PublicKey Q = Samples.OTHER_PROVIDER.publicKey();

    private static byte[] prefixed(byte[] part) {
        return ByteBuffer.allocate(4 + part.length).putInt(part.length).put(part).array();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void guidIsTheHashOfLengthPrefixedParts() {
        assertEquals(Id.hash(prefixed(P.toBytes()), prefixed(utf8("http://a/"))),
                ObjectNames.objectGuid(P, "http://a/", ""));
        assertEquals(Id.hash(prefixed(P.toBytes()), prefixed(utf8("http://a/")), prefixed(utf8("gzip"))),
                ObjectNames.objectGuid(P, "http://a/", "gzip"));
        assertEquals(Id.hash(prefixed(P.toBytes()), prefixed(utf8("riptide:gateway"))), ObjectNames.gatewayGuid(P));
    }

    @Test
    void splittingTheSameBytesDifferentlyGivesDifferentGuids() {
        assertNotEquals(ObjectNames.objectGuid(P, "http://a/x", "bc"), ObjectNames.objectGuid(P, "http://a/xb", "c"));
        assertNotEquals(ObjectNames.objectGuid(P, "http://a/x", "y"), ObjectNames.objectGuid(P, "http://a/xy", ""));
    }

    @Test
    void everyNameDiffers() {
        Set<Id> seen = new HashSet<>();
        for (PublicKey key : List.of(P, Q)) {
            seen.add(ObjectNames.gatewayGuid(key));
            seen.add(ObjectNames.cacheManagerGuid(key));
            for (String url : List.of("http://a/", "http://a/b", "https://a/")) {
                for (String variant : List.of("", "gzip", "br")) {
                    seen.add(ObjectNames.objectGuid(key, url, variant));
                }
            }
        }
        assertEquals(2 * (2 + 3 * 3), seen.size());
    }

    @Test
    void serviceNamesAreReservedAndBadTextRefused() {
        assertThrows(IllegalArgumentException.class, () -> ObjectNames.objectGuid(P, ObjectNames.GATEWAY, ""));
        assertThrows(IllegalArgumentException.class, () -> ObjectNames.objectGuid(P, "", ""));
        assertThrows(IllegalArgumentException.class, () -> ObjectNames.objectGuid(P, "http://a/\uD800", ""));
        assertThrows(IllegalArgumentException.class, () -> ObjectNames.objectGuid(P, "http://a/" + "x".repeat(70_000), ""));
    }
}
