package io.riptide.dolr.store;

import io.riptide.core.runtime.Env;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Continues a store read on the node's loop: at once if the read already completed (a memory tier,
 * so a simulation runs exactly as with synchronous reads), else from the tier's I/O stage through
 * {@link Env#execute}. A failed read counts as a miss (null).
 */
public final class OnLoop {
    private OnLoop() {
    }

    /** Hands the result of {@code read} to {@code then} on {@code env}'s loop. */
    public static <T> void then(Env env, CompletableFuture<T> read, Consumer<T> then) {
        if (read.isDone()) {
            then.accept(read.isCompletedExceptionally() ? null : read.join());
            return;
        }
        read.whenComplete((value, failure) -> env.execute(() -> then.accept(failure == null ? value : null)));
    }
}
