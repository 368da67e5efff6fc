package io.riptide.simulator.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A PolyMix-like request stream (Web Polygraph's cache-off workloads): four content types —
 * images 65% (exponential sizes, mean 4.5 KB), HTML 15% (exponential, 8.5 KB), downloads 0.5%
 * (lognormal, 300 KB) and other 19.5% (lognormal, 25 KB) — 80% of objects cacheable, and a
 * recurrence share (55%) of requests for an object requested before, chosen uniformly among those
 * (PolyMix-1's popularity model); the rest are new objects. A new object's cacheability and size
 * are fixed when it is first drawn.
 */
public final class PolyMixWorkload {
    private static final double[] TYPE_SHARE = {0.65, 0.15, 0.005, 0.195};
    private static final double[] MEAN_BYTES = {4.5 * 1024, 8.5 * 1024, 300 * 1024, 25 * 1024};
    private static final boolean[] LOGNORMAL = {false, false, true, true};
    private static final String[] TYPE_NAME = {"image", "html", "download", "other"};
    /** Spread of the lognormal sizes (sigma of the underlying normal). */
    private static final double SIGMA = 1.0;

    private final String host;
    private final double recurrence;
    private final double cacheable;
    private final int maxObjects;
    private final List<WebFile> seen = new ArrayList<>();

    /**
     * Objects under {@code host}; {@code recurrence} of requests repeat an earlier object, a share
     * {@code cacheable} of objects may be cached; at most {@code maxObjects} distinct objects are
     * remembered for repeats (older ones are replaced), which bounds memory on long runs.
     */
    public PolyMixWorkload(String host, double recurrence, double cacheable, int maxObjects) {
        if (recurrence < 0 || recurrence >= 1 || cacheable < 0 || cacheable > 1 || maxObjects < 1) {
            throw new IllegalArgumentException("invalid PolyMix parameters");
        }
        this.host = host;
        this.recurrence = recurrence;
        this.cacheable = cacheable;
        this.maxObjects = maxObjects;
    }

    /** PolyMix's own shares: 55% recurrence, 80% cacheable. */
    public static PolyMixWorkload standard(String host, int maxObjects) {
        return new PolyMixWorkload(host, 0.55, 0.8, maxObjects);
    }

    /** The next request. */
    public WebFile next(SplittableRandom random) {
        if (!seen.isEmpty() && random.nextDouble() < recurrence) {
            return seen.get(random.nextInt(seen.size()));
        }
        int type = pickType(random.nextDouble());
        double mean = MEAN_BYTES[type];
        double size = LOGNORMAL[type]
                ? Math.exp(Math.log(mean) - SIGMA * SIGMA / 2 + SIGMA * gaussian(random))
                : -mean * Math.log(1.0 - random.nextDouble());
        long id = random.nextLong() & Long.MAX_VALUE;
        WebFile f = new WebFile("http://" + host + "/" + TYPE_NAME[type] + "/" + Long.toHexString(id),
                (int) Math.max(1, Math.min(size, 64L * 1024 * 1024)), random.nextDouble() < cacheable);
        if (seen.size() < maxObjects) {
            seen.add(f);
        } else {
            seen.set(random.nextInt(maxObjects), f);
        }
        return f;
    }

    private static int pickType(double u) {
        double run = 0;
        for (int t = 0; t < TYPE_SHARE.length; t++) {
            run += TYPE_SHARE[t];
            if (u < run) {
                return t;
            }
        }
        return TYPE_SHARE.length - 1;
    }

    private static double gaussian(SplittableRandom random) {
        // Box–Muller, one value per call: simple and deterministic for a given stream.
        double u1 = 1.0 - random.nextDouble();
        double u2 = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    }
}
