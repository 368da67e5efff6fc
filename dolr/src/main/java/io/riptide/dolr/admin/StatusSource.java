package io.riptide.dolr.admin;

import java.util.concurrent.CompletableFuture;

/**
 * Reports one node's or agent's figures. Called from the admin server's thread; a source that reads
 * state owned by another thread (a node's loop) hops there and answers with the future.
 */
@FunctionalInterface
public interface StatusSource {
    CompletableFuture<ReportPart> report();
}
