package io.riptide.core.stage;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;

/** The running stages of one process, fixed at start-up: the real {@link StageRegistry}. */
public final class Stages implements StageRegistry, AutoCloseable {
    private final Map<String, Stage> byName;

    private Stages(Map<String, Stage> byName) {
        this.byName = Collections.unmodifiableMap(byName);
    }

    /** Starts one stage per configuration; names must be unique. */
    public static Stages start(Collection<StageConfig> configs) {
        Map<String, StageConfig> unique = new LinkedHashMap<>();
        for (StageConfig c : configs) {
            if (unique.putIfAbsent(c.name(), c) != null) {
                throw new IllegalArgumentException("stage '" + c.name() + "' configured twice");
            }
        }
        // Names are checked before any thread starts, so a bad list leaves nothing running.
        Map<String, Stage> started = new LinkedHashMap<>();
        unique.forEach((name, c) -> started.put(name, Stage.start(c)));
        return new Stages(started);
    }

    /** {@link #start(Collection)} of the given configurations. */
    public static Stages start(StageConfig... configs) {
        return start(List.of(configs));
    }

    @Override
    public <T> boolean submit(String stage, Callable<T> work, BiConsumer<T, Throwable> done, Executor callbackOn) {
        Stage s = byName.get(stage);
        return s != null && s.submit(work, done, callbackOn);
    }

    /** The stage called {@code name}, if there is one. */
    public Optional<Stage> stage(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** The stage names, in configuration order. */
    public Set<String> names() {
        return byName.keySet();
    }

    /** A snapshot of every stage, by name, in configuration order. */
    public Map<String, StageMetrics> metrics() {
        Map<String, StageMetrics> out = new LinkedHashMap<>();
        byName.forEach((name, stage) -> out.put(name, stage.metrics()));
        return Collections.unmodifiableMap(out);
    }

    /** Closes every stage (see {@link Stage#close}). */
    @Override
    public void close() {
        byName.values().forEach(Stage::close);
    }
}
