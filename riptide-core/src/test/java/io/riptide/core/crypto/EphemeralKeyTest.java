package io.riptide.core.crypto;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.security.SecureRandom;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class EphemeralKeyTest {
    private final SecureRandom random = new SecureRandom();

    @Test
    void bothSidesAgreeOnTheSameSecret() {
        EphemeralKey a = EphemeralKey.generate(random);
        EphemeralKey b = EphemeralKey.generate(random);
        byte[] atA = a.agree(b.publicKey());
        assertNotNull(atA);
        assertEquals(EphemeralKey.BYTES, atA.length);
        assertArrayEquals(atA, b.agree(a.publicKey()));
        assertFalse(Arrays.equals(atA, EphemeralKey.generate(random).agree(b.publicKey())), "another key, another secret");
    }

    @Test
    void aKeyOfSmallOrderOrOfTheWrongLengthGivesNoSecret() {
        EphemeralKey a = EphemeralKey.generate(random);
        // u = 0 and u = 1 are points of small order: the result would be all zeros.
        assertNull(a.agree(new byte[EphemeralKey.BYTES]));
        byte[] one = new byte[EphemeralKey.BYTES];
        one[0] = 1;
        assertNull(a.agree(one));
        assertNull(a.agree(new byte[EphemeralKey.BYTES - 1]));
        assertNull(a.agree(null));
    }
}
