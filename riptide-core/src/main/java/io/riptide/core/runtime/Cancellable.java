package io.riptide.core.runtime;

/** A scheduled task that may still be called off. */
@FunctionalInterface
public interface Cancellable {
    /** Calls the task off; does nothing if it already ran or was cancelled. */
    void cancel();
}
