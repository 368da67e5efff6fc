package io.riptide.core.store.disk;

/**
 * LRU order inside one 8-way set, as ranks: {@code ranks[way]} is 0 for the most recently used way
 * and 7 for the least. The ranks always form a permutation of 0..7 (empty ways included), so an
 * all-zero Lehmer code is the identity order and needs no initialisation.
 *
 * <p>SetMem stores a set's order as the permutation's Lehmer code: 8! = 40320 orders fit in 16 bits,
 * 2 bits per entry instead of 3.
 */
final class SetLru {
    private static final int[] FACTORIAL = {1, 1, 2, 6, 24, 120, 720, 5040};

    private SetLru() {
    }

    /** Makes {@code way} the most recently used. */
    static void touch(int[] ranks, int way) {
        int r = ranks[way];
        for (int i = 0; i < ranks.length; i++) {
            if (ranks[i] < r) {
                ranks[i]++;
            }
        }
        ranks[way] = 0;
    }

    /** Makes {@code way} the least recently used (for an entry just emptied). */
    static void demote(int[] ranks, int way) {
        int r = ranks[way];
        for (int i = 0; i < ranks.length; i++) {
            if (ranks[i] > r) {
                ranks[i]--;
            }
        }
        ranks[way] = ranks.length - 1;
    }

    /** The least recently used way. */
    static int oldest(int[] ranks) {
        for (int i = 0; i < ranks.length; i++) {
            if (ranks[i] == ranks.length - 1) {
                return i;
            }
        }
        throw new IllegalStateException("ranks are not a permutation");
    }

    /** The Lehmer code of an 8-way rank permutation, in [0, 40320). */
    static short encode(int[] ranks) {
        int code = 0;
        for (int i = 0; i < IdBits.WAYS; i++) {
            int smaller = 0;
            for (int j = i + 1; j < IdBits.WAYS; j++) {
                if (ranks[j] < ranks[i]) {
                    smaller++;
                }
            }
            code += smaller * FACTORIAL[IdBits.WAYS - 1 - i];
        }
        return (short) code;
    }

    /** Fills {@code ranks} with the permutation whose Lehmer code is {@code code}. */
    static void decode(short code, int[] ranks) {
        int c = code & 0xffff;
        int used = 0; // bit set of ranks already taken
        for (int i = 0; i < IdBits.WAYS; i++) {
            int f = FACTORIAL[IdBits.WAYS - 1 - i];
            int smaller = c / f;
            c %= f;
            // the (smaller)-th rank not yet used
            int r = 0;
            for (int k = 0; ; r++) {
                if ((used & (1 << r)) == 0) {
                    if (k == smaller) {
                        break;
                    }
                    k++;
                }
            }
            used |= 1 << r;
            ranks[i] = r;
        }
    }
}
