package io.riptide.gateway.admin;

import io.riptide.dolr.server.OverlayServer;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * An admin request's work started on the node's loop, where protocol code runs, and its answer
 * handed back as a future to the admin server's thread.
 */
final class OnNodeLoop {
    private OnNodeLoop() {
    }

    /** {@code start} runs on {@code server}'s loop and completes the future through the callback it is given. */
    static <T> CompletableFuture<T> answer(OverlayServer server, Consumer<Consumer<T>> start) {
        CompletableFuture<T> result = new CompletableFuture<>();
        server.call(node -> {
            start.accept(result::complete);
            return null;
        }).exceptionally(e -> {
            result.completeExceptionally(e);
            return null;
        });
        return result;
    }
}
