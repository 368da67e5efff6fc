package io.riptide.core.id;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Checks Id's word arithmetic against BigInteger arithmetic modulo 2^160. */
class IdTest {
    private static final BigInteger RING = BigInteger.ONE.shiftLeft(Id.BITS);
    private static final int RANDOM_IDS = 3000;

    /** Random IDs plus the values where carries and borrows cross word boundaries. */
    private static List<Id> samples() {
        List<Id> ids = new ArrayList<>();
        long[] words = {0L, 1L, -1L, Long.MIN_VALUE, Long.MAX_VALUE, 0xffffffffL, 0x100000000L};
        int[] los = {0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE};
        for (long hi : words) {
            for (long mid : words) {
                for (int lo : los) {
                    ids.add(Id.fromWords(hi, mid, lo));
                }
            }
        }
        SplittableRandom random = new SplittableRandom(20240607L);
        for (int i = 0; i < RANDOM_IDS; i++) {
            ids.add(Id.fromWords(random.nextLong(), random.nextLong(), random.nextInt()));
        }
        return ids;
    }

    /** Pairs from the samples: every edge value with every edge value, random with random. */
    private static List<Id[]> pairs() {
        List<Id> s = samples();
        int edges = s.size() - RANDOM_IDS;
        List<Id[]> pairs = new ArrayList<>();
        for (int i = 0; i < edges; i++) {
            for (int j = 0; j < edges; j++) {
                pairs.add(new Id[] {s.get(i), s.get(j)});
            }
        }
        SplittableRandom random = new SplittableRandom(7L);
        for (int i = 0; i < 20_000; i++) {
            pairs.add(new Id[] {s.get(random.nextInt(s.size())), s.get(random.nextInt(s.size()))});
        }
        return pairs;
    }

    private static BigInteger big(Id id) {
        return new BigInteger(1, id.toBytes());
    }

    private static Id id(BigInteger value) {
        BigInteger v = value.mod(RING);
        byte[] raw = v.toByteArray();
        byte[] out = new byte[Id.BYTES];
        int n = Math.min(raw.length, Id.BYTES);
        System.arraycopy(raw, raw.length - n, out, Id.BYTES - n, n);
        return Id.fromBytes(out);
    }

    private static String hex40(BigInteger v) {
        String h = v.toString(16);
        return "0".repeat(40 - h.length()) + h;
    }

    @Test
    void wordsAreTheBigEndianBytes() {
        Id id = Id.fromWords(0x0102030405060708L, 0x090a0b0c0d0e0f10L, 0x11121314);
        byte[] expected = new byte[20];
        for (int i = 0; i < 20; i++) {
            expected[i] = (byte) (i + 1);
        }
        assertArrayEquals(expected, id.toBytes());
        assertEquals("0102030405060708090a0b0c0d0e0f1011121314", id.toHex());
        assertEquals("01020304", id.shortHex());
        assertEquals(id.toHex(), id.toString());
    }

    @Test
    void bytesAndHexRoundTripAndMatchBigInteger() {
        for (Id id : samples()) {
            assertEquals(id, Id.fromBytes(id.toBytes()));
            assertEquals(id, Id.fromHex(id.toHex()));
            assertEquals(id, Id.fromHex(id.toHex().toUpperCase()));
            assertEquals(id, Id.fromWords(id.hi(), id.mid(), id.lo()));
            assertEquals(hex40(big(id)), id.toHex());
            assertEquals(id, id(big(id)));
        }
    }

    @Test
    void readsAtAnOffset() {
        Id id = Id.hash("offset");
        byte[] padded = new byte[Id.BYTES + 7];
        System.arraycopy(id.toBytes(), 0, padded, 3, Id.BYTES);
        assertEquals(id, Id.fromBytes(padded, 3));
    }

    @Test
    void refusesWrongLengths() {
        assertThrows(IllegalArgumentException.class, () -> Id.fromBytes(new byte[19]));
        assertThrows(IllegalArgumentException.class, () -> Id.fromBytes(new byte[21]));
        assertThrows(IllegalArgumentException.class, () -> Id.fromHex("abc"));
        assertThrows(IllegalArgumentException.class, () -> Id.fromHex("zz" + "0".repeat(38)));
    }

    @Test
    void digitIsTheHexDigit() {
        for (Id id : samples()) {
            String hex = id.toHex();
            for (int i = 0; i < Id.DIGITS; i++) {
                assertEquals(Character.digit(hex.charAt(i), 16), id.digit(i), () -> hex);
            }
        }
        Id any = Id.ZERO;
        assertThrows(IndexOutOfBoundsException.class, () -> any.digit(-1));
        assertThrows(IndexOutOfBoundsException.class, () -> any.digit(Id.DIGITS));
    }

    @Test
    void sharedPrefixLengthCountsEqualLeadingHexDigits() {
        for (Id[] p : pairs()) {
            String a = p[0].toHex();
            String b = p[1].toHex();
            int expected = 0;
            while (expected < a.length() && a.charAt(expected) == b.charAt(expected)) {
                expected++;
            }
            assertEquals(expected, p[0].sharedPrefixLength(p[1]), () -> a + " vs " + b);
            assertEquals(expected, p[1].sharedPrefixLength(p[0]));
        }
        // One differing digit at each position, including each word's first and last digit.
        Id base = Id.hash("prefix");
        for (int i = 0; i < Id.DIGITS; i++) {
            char[] hex = base.toHex().toCharArray();
            hex[i] = hex[i] == '0' ? '1' : '0';
            assertEquals(i, base.sharedPrefixLength(Id.fromHex(new String(hex))));
        }
    }

    @Test
    void minusAndPlusAreArithmeticModulo2To160() {
        for (Id[] p : pairs()) {
            BigInteger a = big(p[0]);
            BigInteger b = big(p[1]);
            assertEquals(id(a.subtract(b)), p[0].minus(p[1]), () -> p[0] + " - " + p[1]);
            assertEquals(id(a.add(b)), p[0].plus(p[1]), () -> p[0] + " + " + p[1]);
            assertEquals(id(b.subtract(a)), p[0].clockwiseTo(p[1]));
        }
    }

    @Test
    void wrapsAroundTheRing() {
        Id allOnes = Id.fromHex("f".repeat(40));
        Id one = Id.fromWords(0, 0, 1);
        assertEquals(Id.ZERO, allOnes.plus(one));
        assertEquals(allOnes, Id.ZERO.minus(one));
        assertEquals(Id.ZERO, allOnes.minus(allOnes));
        assertEquals(allOnes.minus(one), allOnes.plus(allOnes));
        // Borrow and carry crossing both word boundaries at once.
        Id midBoundary = Id.fromWords(1, 0, 0);
        assertEquals(Id.fromWords(0, -1, -1), midBoundary.minus(one));
        assertEquals(midBoundary, Id.fromWords(0, -1, -1).plus(one));
        assertEquals(Id.fromWords(0, 1, 0), Id.fromWords(0, 0, -1).plus(one));
        assertEquals(Id.fromWords(0, 0, -1), Id.fromWords(0, 1, 0).minus(one));
        assertEquals(one, Id.ZERO.ringDistance(allOnes), "neighbours across zero");
    }

    @Test
    void ringDistanceIsTheShorterWayRound() {
        for (Id[] p : pairs()) {
            BigInteger cw = big(p[1]).subtract(big(p[0])).mod(RING);
            BigInteger ccw = big(p[0]).subtract(big(p[1])).mod(RING);
            Id expected = id(cw.min(ccw));
            assertEquals(expected, p[0].ringDistance(p[1]));
            assertEquals(expected, p[1].ringDistance(p[0]), "symmetric");
        }
    }

    @Test
    void closerToComparesRingDistancesAndBreaksTiesTowardsTheSmallerId() {
        SplittableRandom random = new SplittableRandom(99L);
        List<Id> s = samples();
        for (Id[] p : pairs()) {
            Id key = s.get(random.nextInt(s.size()));
            assertEquals(expectedCloser(p[0], key, p[1]), p[0].closerTo(key, p[1]), () -> p[0] + " " + key + " " + p[1]);
        }
        // Exact ties: two IDs equidistant on opposite sides of the key.
        Id key = Id.hash("tie");
        Id d = Id.fromWords(0, 5, 7);
        Id above = key.plus(d);
        Id below = key.minus(d);
        Id smaller = above.compareTo(below) < 0 ? above : below;
        Id larger = smaller == above ? below : above;
        assertTrue(smaller.closerTo(key, larger));
        assertTrue(!larger.closerTo(key, smaller));
        assertTrue(!key.closerTo(key, key), "strictly closer: never closer than itself");
        // Antipodal: half the ring either way.
        Id half = Id.fromWords(Long.MIN_VALUE, 0, 0);
        assertEquals(half, Id.ZERO.ringDistance(half));
    }

    @Test
    void compareRingDistanceOrdersLikeBigIntegerDistances() {
        SplittableRandom random = new SplittableRandom(1234L);
        List<Id> s = samples();
        for (Id[] p : pairs()) {
            Id key = s.get(random.nextInt(s.size()));
            int expected = Integer.signum(distance(big(p[0]), big(key)).compareTo(distance(big(p[1]), big(key))));
            assertEquals(expected, Integer.signum(key.compareRingDistance(p[0], p[1])), () -> key + " " + p[0] + " " + p[1]);
            assertEquals(-expected, Integer.signum(key.compareRingDistance(p[1], p[0])), "antisymmetric");
            assertEquals(Integer.signum(key.ringDistance(p[0]).compareTo(key.ringDistance(p[1]))),
                    Integer.signum(key.compareRingDistance(p[0], p[1])), "same order as ringDistance");
        }
        // Keys at the edges: a and b differing only where the borrow crosses a word boundary.
        for (Id key : s.subList(0, s.size() - RANDOM_IDS)) {
            for (Id[] p : new Id[][] {{Id.fromWords(0, 0, 1), Id.fromWords(0, 1, 0)}, {Id.fromWords(1, 0, 0), Id.fromWords(0, -1, -1)}}) {
                Id a = key.plus(p[0]);
                Id b = key.minus(p[1]);
                int expected = Integer.signum(distance(big(a), big(key)).compareTo(distance(big(b), big(key))));
                assertEquals(expected, Integer.signum(key.compareRingDistance(a, b)), () -> key + " " + a + " " + b);
            }
        }
        Id key = Id.hash("tie");
        Id d = Id.fromWords(0, 5, 7);
        assertEquals(0, key.compareRingDistance(key.plus(d), key.minus(d)), "equidistant on opposite sides");
        assertEquals(0, key.compareRingDistance(key, key));
        Id half = Id.fromWords(Long.MIN_VALUE, 0, 0);
        assertEquals(0, key.compareRingDistance(key.plus(half), key.minus(half)), "antipode either way");
        assertTrue(key.compareRingDistance(key.plus(half).minus(Id.fromWords(0, 0, 1)), key.plus(half)) < 0,
                "one short of the antipode is nearer than the antipode");
    }

    @Test
    void compareClockwiseAndCounterClockwiseDistancesOrderLikeBigIntegerDifferences() {
        SplittableRandom random = new SplittableRandom(4321L);
        List<Id> s = samples();
        List<Id[]> triples = new ArrayList<>();
        for (Id[] p : pairs()) {
            triples.add(new Id[] {s.get(random.nextInt(s.size())), p[0], p[1]});
            // The origin equal to one of the two: distance zero, the wrap point itself.
            triples.add(new Id[] {p[0], p[0], p[1]});
        }
        for (Id[] t : triples) {
            BigInteger origin = big(t[0]);
            BigInteger a = big(t[1]);
            BigInteger b = big(t[2]);
            int cw = Integer.signum(a.subtract(origin).mod(RING).compareTo(b.subtract(origin).mod(RING)));
            int ccw = Integer.signum(origin.subtract(a).mod(RING).compareTo(origin.subtract(b).mod(RING)));
            assertEquals(cw, t[0].compareClockwiseDistance(t[1], t[2]), () -> "cw " + t[0] + " " + t[1] + " " + t[2]);
            assertEquals(ccw, t[0].compareCounterClockwiseDistance(t[1], t[2]), () -> "ccw " + t[0] + " " + t[1] + " " + t[2]);
        }
    }

    private static boolean expectedCloser(Id self, Id key, Id other) {
        BigInteger k = big(key);
        BigInteger ds = distance(big(self), k);
        BigInteger dotherv = distance(big(other), k);
        int c = ds.compareTo(dotherv);
        return c != 0 ? c < 0 : big(self).compareTo(big(other)) < 0;
    }

    private static BigInteger distance(BigInteger a, BigInteger b) {
        BigInteger cw = b.subtract(a).mod(RING);
        BigInteger ccw = a.subtract(b).mod(RING);
        return cw.min(ccw);
    }

    @Test
    void compareToIsUnsignedNumericOrderConsistentWithEquals() {
        for (Id[] p : pairs()) {
            int expected = big(p[0]).compareTo(big(p[1]));
            assertEquals(expected, Integer.signum(p[0].compareTo(p[1])), () -> p[0] + " vs " + p[1]);
            assertEquals(expected == 0, p[0].equals(p[1]));
            if (expected == 0) {
                assertEquals(p[0].hashCode(), p[1].hashCode());
            }
        }
        List<Id> sorted = new ArrayList<>(samples());
        sorted.sort(null);
        for (int i = 1; i < sorted.size(); i++) {
            assertTrue(big(sorted.get(i - 1)).compareTo(big(sorted.get(i))) <= 0);
        }
    }

    @Test
    void equalityLooksAtEveryWord() {
        Id id = Id.fromWords(1, 2, 3);
        assertNotEquals(id, Id.fromWords(0, 2, 3));
        assertNotEquals(id, Id.fromWords(1, 0, 3));
        assertNotEquals(id, Id.fromWords(1, 2, 0));
        assertNotEquals(id, "not an id");
    }

    @Test
    void hashIsTheFirstTwentyBytesOfSha256() throws Exception {
        byte[] digest = MessageDigest.getInstance("SHA-256").digest("hello".getBytes(StandardCharsets.UTF_8));
        assertArrayEquals(Arrays.copyOf(digest, Id.BYTES), Id.hash("hello").toBytes());
        assertEquals(Id.hash("hel".getBytes(StandardCharsets.UTF_8), "lo".getBytes(StandardCharsets.UTF_8)), Id.hash("hello"), "parts are concatenated");
    }

    @Test
    void unitIntervalIsTheFractionOfTheRing() {
        for (Id id : samples()) {
            double expected = new java.math.BigDecimal(big(id)).divide(new java.math.BigDecimal(RING)).doubleValue();
            double got = id.toUnitInterval();
            assertTrue(got >= 0 && got < 1, () -> id + " -> " + got);
            assertEquals(expected, got, 0x1.0p-52, id::toHex);
        }
    }
}
