package io.riptide.core.crypto;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The memo answers exactly as {@link PublicKey#verify} would, and saves the work only on an exact repeat. */
class VerifiedSignaturesTest {
    private static final byte[] DATA = "version 7 of the front page".getBytes(StandardCharsets.UTF_8);

    private static SigningKey key(int seed) {
        byte[] s = new byte[32];
        Arrays.fill(s, (byte) seed);
        return SigningKey.fromSeed(s);
    }

    private static final SigningKey KEY = key(1);
    private static final SigningKey OTHER = key(2);

    @Test
    void anExactRepeatIsAHitAndAnythingElseIsVerifiedInFull() {
        VerifiedSignatures memo = new VerifiedSignatures();
        byte[] sig = KEY.sign(DATA);
        assertTrue(memo.verify(KEY.publicKey(), DATA, sig));
        assertTrue(memo.verify(KEY.publicKey(), DATA.clone(), sig.clone()));
        assertEquals(1, memo.fullVerifications());
        assertEquals(1, memo.hits());

        byte[] data = DATA.clone();
        data[data.length - 1] ^= 1;
        assertFalse(memo.verify(KEY.publicKey(), data, sig), "another message");
        byte[] longer = Arrays.copyOf(DATA, DATA.length + 1);
        assertFalse(memo.verify(KEY.publicKey(), longer, sig), "a byte appended");
        byte[] flipped = sig.clone();
        flipped[63] ^= 1;
        assertFalse(memo.verify(KEY.publicKey(), DATA, flipped), "another signature");
        assertFalse(memo.verify(OTHER.publicKey(), DATA, sig), "another key");
        assertEquals(5, memo.fullVerifications());
        assertEquals(1, memo.hits());
        assertEquals(1, memo.size());
    }

    @Test
    void failuresAreNeverRemembered() {
        VerifiedSignatures memo = new VerifiedSignatures();
        byte[] forged = OTHER.sign(DATA);
        for (int i = 0; i < 3; i++) {
            assertFalse(memo.verify(KEY.publicKey(), DATA, forged));
        }
        assertEquals(3, memo.fullVerifications());
        assertEquals(0, memo.hits());
        assertEquals(0, memo.size());
        // Wrong lengths are refused as PublicKey.verify refuses them, without counting as work.
        assertFalse(memo.verify(KEY.publicKey(), DATA, new byte[63]));
        assertFalse(memo.verify(KEY.publicKey(), DATA, null));
        assertEquals(3, memo.fullVerifications());
    }

    @Test
    void theBoundHolds() {
        VerifiedSignatures memo = new VerifiedSignatures(16);
        assertEquals(16, memo.maxEntries());
        for (int i = 0; i < 200; i++) {
            byte[] data = ("statement " + i).getBytes(StandardCharsets.UTF_8);
            assertTrue(memo.verify(KEY.publicKey(), data, KEY.sign(data)));
            assertTrue(memo.size() <= 16, "size " + memo.size());
        }
        assertEquals(200, memo.fullVerifications());
        assertThrows(IllegalArgumentException.class, () -> new VerifiedSignatures(0));
        assertEquals(65_536, VerifiedSignatures.DEFAULT_MAX_ENTRIES);
    }

    @Test
    void concurrentCallersAgreeAndEveryCallIsCounted() throws Exception {
        VerifiedSignatures memo = new VerifiedSignatures(64);
        List<byte[]> data = new ArrayList<>();
        List<byte[]> sigs = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            byte[] d = ("statement " + i).getBytes(StandardCharsets.UTF_8);
            data.add(d);
            // Every fourth one forged: must fail every time on every thread.
            sigs.add(i % 4 == 3 ? OTHER.sign(d) : KEY.sign(d));
        }
        int threads = 4;
        int rounds = 50;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int offset = t;
                results.add(pool.submit(() -> {
                    int wrong = 0;
                    for (int r = 0; r < rounds; r++) {
                        for (int i = 0; i < data.size(); i++) {
                            int k = (i + offset * 7) % data.size();
                            if (memo.verify(KEY.publicKey(), data.get(k), sigs.get(k)) != (k % 4 != 3)) {
                                wrong++;
                            }
                        }
                    }
                    return wrong;
                }));
            }
            for (Future<Integer> f : results) {
                assertEquals(0, f.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }
        long calls = (long) threads * rounds * data.size();
        assertEquals(calls, memo.hits() + memo.fullVerifications());
        // The 8 forged ones are verified in full on every call; the 24 genuine ones about once each.
        long forgedCalls = (long) threads * rounds * 8;
        assertTrue(memo.fullVerifications() >= forgedCalls + 24, memo.toString());
        assertTrue(memo.fullVerifications() <= forgedCalls + 24L * threads, memo.toString());
        assertEquals(24, memo.size());
    }
}
