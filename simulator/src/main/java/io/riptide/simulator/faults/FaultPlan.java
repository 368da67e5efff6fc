package io.riptide.simulator.faults;

import io.riptide.simulator.report.ResultJson;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

/**
 * The faults of one run, drawn from its seed: every kind asked for, one to three times, at random
 * times within the fault window, each healing within it (a clock skew stays: clocks do not heal by
 * themselves). Each kind draws from a stream of its own, split in a fixed order whether or not the
 * kind is asked for, so leaving one kind out of a failing seed's run keeps the others' schedule
 * exactly as it was: the way to find which fault a failure needs.
 *
 * @param faults every fault, in order of their start
 */
public record FaultPlan(List<Fault> faults) {
    private static final long S = 1_000_000_000L;
    private static final long MS = 1_000_000L;

    public FaultPlan {
        faults = faults.stream().sorted(Comparator.comparingLong(Fault::startNanos)).toList();
    }

    /**
     * Where faults may fall.
     *
     * @param startNanos   the fault window's start
     * @param lengthNanos  its length: every fault that heals has healed by its end
     * @param stubs        the topology's stubs (a partition cuts some of them off)
     * @param crashable    the vertices whose nodes may crash (not those whose behaviour is observed)
     * @param hosts        the vertices whose clocks and disks may misbehave
     * @param key          the vertices whose faults matter most (the gateways, the replicas' holders): each crash,
     *                     skew and slow disk falls on one of them half the time, where a uniform draw over a few
     *                     dozen nodes would seldom hit them
     * @param kinds        the kinds of fault to draw
     */
    public record Space(long startNanos, long lengthNanos, int stubs, List<Integer> crashable, List<Integer> hosts,
                        List<Integer> key, Set<FaultKind> kinds) {
        public Space {
            crashable = List.copyOf(crashable);
            hosts = List.copyOf(hosts);
            key = List.copyOf(key);
            kinds = kinds.isEmpty() ? Set.of() : EnumSet.copyOf(kinds);
            if (lengthNanos < 4 * S) {
                throw new IllegalArgumentException("a fault window needs at least 4 s, got " + lengthNanos + " ns");
            }
        }

        long endNanos() {
            return startNanos + lengthNanos;
        }
    }

    /** Draws a plan for {@code space} from {@code random}. */
    public static FaultPlan draw(Space space, SplittableRandom random) {
        List<Fault> faults = new ArrayList<>();
        for (FaultKind kind : FaultKind.values()) {
            SplittableRandom r = random.split();
            if (space.kinds().contains(kind)) {
                faults.addAll(draw(kind, space, r));
            }
        }
        return new FaultPlan(faults);
    }

    private static List<Fault> draw(FaultKind kind, Space space, SplittableRandom r) {
        List<Fault> out = new ArrayList<>();
        switch (kind) {
            case LOSS -> {
                for (int i = 1 + r.nextInt(2); i > 0; i--) {
                    out.add(window(kind, space, r, 2 * S, 10 * S, between(r, 0.01, 0.10), 0, List.of()));
                }
            }
            case DUPLICATION -> {
                for (int i = 1 + r.nextInt(2); i > 0; i--) {
                    out.add(window(kind, space, r, 3 * S, 12 * S, between(r, 0.02, 0.20), 0, List.of()));
                }
            }
            case REORDERING -> {
                for (int i = 1 + r.nextInt(2); i > 0; i--) {
                    out.add(window(kind, space, r, 3 * S, 12 * S, between(r, 0.10, 0.60), r.nextLong(20 * MS, 400 * MS), List.of()));
                }
            }
            case PARTITION -> {
                if (space.stubs() < 2) {
                    break;
                }
                for (int i = 1 + r.nextInt(2); i > 0; i--) {
                    // Some stubs, at most half, cut off from the rest: a campus losing its uplink, or a region.
                    int cut = 1 + r.nextInt(Math.max(1, space.stubs() / 2));
                    List<Integer> stubs = pick(r, range(space.stubs()), cut);
                    // Shorter than failure detection (7 s) or well past it.
                    out.add(window(kind, space, r, 2 * S, 15 * S, 0, 0, stubs));
                }
            }
            case CRASH -> {
                List<Integer> victims = pickFavouring(r, space.crashable(), space.key(), 1 + r.nextInt(3));
                for (int v : victims) {
                    out.add(window(kind, space, r, 2 * S, 15 * S, 0, 0, List.of(v)));
                }
            }
            case CLOCK_SKEW -> {
                List<Integer> hosts = pickFavouring(r, space.hosts(), space.key(), 1 + r.nextInt(3));
                for (int v : hosts) {
                    long at = space.startNanos() + r.nextLong(space.lengthNanos());
                    long step = r.nextLong(500 * MS, 60 * S) * (r.nextBoolean() ? 1 : -1);
                    out.add(new Fault(kind, at, Fault.PERMANENT, 0, step, List.of(v)));
                }
            }
            case SLOW_DISK -> {
                List<Integer> hosts = pickFavouring(r, space.hosts(), space.key(), 1 + r.nextInt(3));
                for (int v : hosts) {
                    out.add(window(kind, space, r, 3 * S, 15 * S, 0, r.nextLong(20 * MS, 500 * MS), List.of(v)));
                }
            }
        }
        return out;
    }

    /** A fault lasting between {@code min} and {@code max}, starting at random so that it heals within the window. */
    private static Fault window(FaultKind kind, Space space, SplittableRandom r, long min, long max, double p, long nanos,
                                List<Integer> vertices) {
        long length = Math.min(r.nextLong(min, max + 1), space.lengthNanos());
        long start = space.startNanos() + r.nextLong(space.lengthNanos() - length + 1);
        return new Fault(kind, start, start + length, p, nanos, vertices);
    }

    private static double between(SplittableRandom r, double low, double high) {
        return low + r.nextDouble() * (high - low);
    }

    private static List<Integer> range(int n) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(i);
        }
        return out;
    }

    /** {@code n} of {@code from}, drawn without repeats, in the order drawn. */
    private static List<Integer> pick(SplittableRandom r, List<Integer> from, int n) {
        List<Integer> pool = new ArrayList<>(from);
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < n && !pool.isEmpty(); i++) {
            out.add(pool.remove(r.nextInt(pool.size())));
        }
        return out;
    }

    /**
     * Up to {@code n} distinct vertices of {@code from}, each one of {@code key} (that is also in
     * {@code from}) with probability one half while any is left.
     */
    private static List<Integer> pickFavouring(SplittableRandom r, List<Integer> from, List<Integer> key, int n) {
        List<Integer> pool = new ArrayList<>(from);
        List<Integer> favoured = new ArrayList<>(key);
        favoured.retainAll(from);
        List<Integer> out = new ArrayList<>();
        while (out.size() < n && !pool.isEmpty()) {
            List<Integer> source = !favoured.isEmpty() && r.nextBoolean() ? favoured : pool;
            Integer v = source.get(r.nextInt(source.size()));
            pool.remove(v);
            favoured.remove(v);
            out.add(v);
        }
        return out;
    }

    /** How many faults of each kind, every kind listed. */
    public Map<FaultKind, Integer> counts() {
        Map<FaultKind, Integer> counts = new EnumMap<>(FaultKind.class);
        for (FaultKind k : FaultKind.values()) {
            counts.put(k, 0);
        }
        faults.forEach(f -> counts.merge(f.kind(), 1, Integer::sum));
        return counts;
    }

    /** When the last fault that heals has healed (the start of the window if none does). */
    public long healedByNanos(long windowStart) {
        return faults.stream().filter(Fault::heals).mapToLong(Fault::endNanos).max().orElse(windowStart);
    }

    /** Writes each fault as an object of {@code list}, times in seconds of virtual time. */
    public void write(ResultJson.ObjectList list) {
        for (Fault f : faults) {
            ResultJson row = list.add().put("kind", f.kind().label()).put("start_s", f.startNanos() / 1e9);
            row.put("end_s", f.heals() ? f.endNanos() / 1e9 : -1);
            switch (f.kind()) {
                case LOSS, DUPLICATION -> row.put("probability", f.probability());
                case REORDERING -> row.put("probability", f.probability()).put("max_extra_delay_ms", f.nanos() / 1e6);
                case PARTITION -> row.put("stubs_cut_off", f.vertices().stream().mapToLong(Integer::longValue).toArray());
                case CRASH -> row.put("vertex", (long) f.vertices().get(0));
                case CLOCK_SKEW -> row.put("vertex", (long) f.vertices().get(0)).put("skew_s", f.nanos() / 1e9);
                case SLOW_DISK -> row.put("vertex", (long) f.vertices().get(0)).put("read_delay_ms", f.nanos() / 1e6);
            }
        }
    }
}
