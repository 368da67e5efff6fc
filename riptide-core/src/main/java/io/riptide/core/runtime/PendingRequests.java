package io.riptide.core.runtime;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Requests a node sent and is waiting to hear back about, by request ID: each is completed once,
 * either by its answer or, at its deadline, by a timeout value. Protocol code uses it for every
 * ask-and-wait exchange so none of them can wait forever or answer twice.
 */
public final class PendingRequests<T> {
    private final Env env;
    private final Map<Long, Entry<T>> pending = new HashMap<>();
    private long nextId;

    private record Entry<T>(Consumer<T> done, Cancellable deadline) {
    }

    public PendingRequests(Env env) {
        this(env, 0);
    }

    /**
     * IDs start after {@code idsAfter}: a part of a node that shares its messages' ID field with
     * another part (both answered by the same reply type) takes a range of its own.
     */
    public PendingRequests(Env env, long idsAfter) {
        this.env = env;
        this.nextId = idsAfter;
    }

    /** Registers a request; {@code done} gets its answer, or {@code onTimeout}'s value after {@code deadline}. */
    public long add(Duration deadline, Consumer<T> done, Supplier<T> onTimeout) {
        long id = ++nextId;
        Cancellable timer = env.schedule(deadline, () -> {
            Entry<T> e = pending.remove(id);
            if (e != null) {
                e.done().accept(onTimeout.get());
            }
        });
        pending.put(id, new Entry<>(done, timer));
        return id;
    }

    /** Completes request {@code id} with {@code value}; false if it is unknown, already done, or timed out. */
    public boolean complete(long id, T value) {
        Entry<T> e = pending.remove(id);
        if (e == null) {
            return false;
        }
        e.deadline().cancel();
        e.done().accept(value);
        return true;
    }

    /** Whether request {@code id} is still waiting. */
    public boolean isPending(long id) {
        return pending.containsKey(id);
    }

    /** Requests still waiting. */
    public int size() {
        return pending.size();
    }
}
