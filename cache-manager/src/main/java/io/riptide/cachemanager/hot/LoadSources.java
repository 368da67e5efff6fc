package io.riptide.cachemanager.hot;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where each object's load comes from: request rates per source, the overlay node that sent the
 * hint or load report (a proxy's access node). Reads go to the replica nearest their source, so
 * these are the places where a new replica takes load. Bounded in objects and in sources per object.
 */
public final class LoadSources {
    /** One source of an object's load and its requests per second over the window. */
    public record Source(NodeHandle node, double perSecond) {
    }

    /** Most sources remembered per object: beyond these, a source could take only a sliver of the load. */
    static final int MAX_SOURCES = 64;
    private static final Comparator<Source> HEAVIEST_FIRST =
            Comparator.comparingDouble(Source::perSecond).reversed().thenComparing(s -> s.node().id());

    private final Duration window;
    private final int maxObjects;
    // Access order: the least recently requested object comes first.
    private final Map<Id, PerObject> objects = new LinkedHashMap<>(64, 0.75f, true);

    private final class PerObject {
        final RequestRates<Id> rates = new RequestRates<>(window, MAX_SOURCES);
        final Map<Id, NodeHandle> handles = new HashMap<>();
    }

    public LoadSources(Duration window, int maxObjects) {
        this.window = window;
        this.maxObjects = maxObjects;
    }

    /** {@code count} requests for {@code guid} came from {@code source} at {@code nowNanos}. */
    public void record(Id guid, NodeHandle source, long count, long nowNanos) {
        PerObject o = objects.computeIfAbsent(guid, g -> new PerObject());
        o.rates.record(source.id(), count, nowNanos);
        o.handles.put(source.id(), source);
        if (o.handles.size() > 2 * MAX_SOURCES) {
            o.handles.keySet().retainAll(o.rates.active(nowNanos));
        }
        Iterator<Id> it = objects.keySet().iterator();
        while (objects.size() > maxObjects && it.hasNext()) {
            it.next();
            it.remove();
        }
    }

    /** The sources of {@code guid}'s load in the window ending at {@code nowNanos}, heaviest first. */
    public List<Source> heaviestFirst(Id guid, long nowNanos) {
        PerObject o = objects.get(guid);
        if (o == null) {
            return List.of();
        }
        List<Id> active = o.rates.active(nowNanos);
        o.handles.keySet().retainAll(active);
        if (active.isEmpty()) {
            objects.remove(guid);
            return List.of();
        }
        List<Source> out = new ArrayList<>();
        for (Id id : active) {
            out.add(new Source(o.handles.get(id), o.rates.perSecond(id, nowNanos)));
        }
        out.sort(HEAVIEST_FIRST);
        return out;
    }
}
