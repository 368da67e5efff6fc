package io.riptide.dolr.client;

/**
 * How long one access node has gone without answering anything while reads through it wait. A node
 * that hangs with its connection open (a stuck loop, a stopped process) shows nothing else: its
 * connection stays up and each read would wait out its deadline. Runs on the client's loop.
 */
final class Silence {
    private int waiting;
    /** When the node last answered, or when the first read of a quiet spell was sent; -1 while nothing waits. */
    private long since = -1;

    /** A read was sent through the node at {@code now}. */
    void sent(long now) {
        if (waiting++ == 0) {
            since = now;
        }
    }

    /** The node answered one of its reads (with a copy or a failure: either way it is alive). */
    void answered(long now) {
        waiting--;
        since = waiting > 0 ? now : -1;
    }

    /** One of its reads ended without an answer from it (its deadline, or its connection lost). */
    void abandoned() {
        if (--waiting == 0) {
            since = -1;
        }
    }

    /** Since when reads have waited on the node without a word from it; -1 if none waits. */
    long since() {
        return since;
    }

    /** How long reads have waited on the node without a word from it at {@code now}; 0 if none waits. */
    long silentFor(long now) {
        return since < 0 ? 0 : now - since;
    }
}
