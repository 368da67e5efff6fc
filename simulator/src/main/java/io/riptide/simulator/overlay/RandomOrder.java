package io.riptide.simulator.overlay;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** A seeded Fisher–Yates shuffle of vertices: experiments pick "random" nodes this way, reproducibly. */
public final class RandomOrder {
    private RandomOrder() {
    }

    /** {@code values} in a random order drawn from {@code random}. */
    public static List<Integer> of(int[] values, SplittableRandom random) {
        List<Integer> list = new ArrayList<>(values.length);
        for (int v : values) {
            list.add(v);
        }
        for (int i = list.size() - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int t = list.get(i);
            list.set(i, list.get(j));
            list.set(j, t);
        }
        return list;
    }
}
