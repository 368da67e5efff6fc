package io.riptide.core.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

class HkdfTest {
    private final HexFormat hex = HexFormat.of();

    @Test
    void matchesRfc5869TestCase1() {
        byte[] okm = Hkdf.sha256(hex.parseHex("000102030405060708090a0b0c"),
                hex.parseHex("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b"), hex.parseHex("f0f1f2f3f4f5f6f7f8f9"), 42);
        assertEquals("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865", hex.formatHex(okm));
    }
}
