package io.riptide.core.store.disk;

import io.riptide.core.id.Id;

/** Where an ID goes in a set-associative index: its set from the top word, its tag from the middle word. */
final class IdBits {
    /** Entries per set. */
    static final int WAYS = 8;

    private IdBits() {
    }

    /** The set of {@code key} among {@code sets}. */
    static long set(Id key, long sets) {
        return Long.remainderUnsigned(key.hi(), sets);
    }

    /** An 8-bit tag in [1, 255]; 0 marks an empty entry. Independent of the set bits. */
    static int tag(Id key) {
        return 1 + (int) Long.remainderUnsigned(key.mid(), 255);
    }
}
