package io.riptide.core.stage;

import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;

/** The SEDA stages of one process, by name: where event loops hand heavy or blocking work. */
public interface StageRegistry {
    /**
     * Queues {@code work} on the named stage; when it finishes, {@code done} runs on
     * {@code callbackOn} (the caller's event loop) with the result or the failure. Returns false
     * without queueing when the stage's queue is full (admission control) or the stage is unknown.
     */
    <T> boolean submit(String stage, Callable<T> work, BiConsumer<T, Throwable> done, Executor callbackOn);
}
