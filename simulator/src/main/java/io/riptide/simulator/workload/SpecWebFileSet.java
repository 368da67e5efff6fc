package io.riptide.simulator.workload;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A SPECweb99-like file set and its request mix: directories of 36 files in four size classes
 * (0.1–0.9 KB, 1–9 KB, 10–90 KB, 100–900 KB, nine files each), the classes requested 35%, 50%, 14%
 * and 1% of the time, directories by Zipf popularity and, within a class, file i (1-based) with
 * weight 1/i, as SPECweb99's static workload does. A share of the files is marked uncacheable, as
 * the paper's load had 80% cacheable documents.
 */
public final class SpecWebFileSet {
    /** Files per size class. */
    public static final int FILES_PER_CLASS = 9;
    private static final int[] CLASS_BASE_BYTES = {102, 1024, 10 * 1024, 100 * 1024};
    private static final double[] CLASS_SHARE = {0.35, 0.50, 0.14, 0.01};

    private final List<WebFile> files = new ArrayList<>();
    private final double[] directoryCdf;
    private final double[] classCdf = cumulative(CLASS_SHARE);
    private final double[] fileCdf;

    /**
     * {@code directories} directories under {@code host}; each file uncacheable with probability
     * {@code 1 - cacheableShare}, drawn from {@code seed}.
     */
    public SpecWebFileSet(String host, int directories, double cacheableShare, long seed) {
        if (directories < 1) {
            throw new IllegalArgumentException("need at least one directory, got " + directories);
        }
        SplittableRandom random = new SplittableRandom(seed);
        for (int d = 0; d < directories; d++) {
            for (int c = 0; c < CLASS_BASE_BYTES.length; c++) {
                for (int f = 1; f <= FILES_PER_CLASS; f++) {
                    files.add(new WebFile("http://" + host + "/dir" + d + "/class" + c + "_" + f, CLASS_BASE_BYTES[c] * f,
                            random.nextDouble() < cacheableShare));
                }
            }
        }
        double[] dirWeights = new double[directories];
        for (int d = 0; d < directories; d++) {
            dirWeights[d] = 1.0 / (d + 1);
        }
        this.directoryCdf = cumulative(dirWeights);
        double[] fileWeights = new double[FILES_PER_CLASS];
        for (int f = 0; f < FILES_PER_CLASS; f++) {
            fileWeights[f] = 1.0 / (f + 1);
        }
        this.fileCdf = cumulative(fileWeights);
    }

    /** Every file, directory by directory. */
    public List<WebFile> files() {
        return List.copyOf(files);
    }

    /** The next request of the mix. */
    public WebFile next(SplittableRandom random) {
        int d = pick(directoryCdf, random.nextDouble());
        int c = pick(classCdf, random.nextDouble());
        int f = pick(fileCdf, random.nextDouble());
        return files.get((d * CLASS_BASE_BYTES.length + c) * FILES_PER_CLASS + f);
    }

    private static double[] cumulative(double[] weights) {
        double total = 0;
        for (double w : weights) {
            total += w;
        }
        double[] cdf = new double[weights.length];
        double run = 0;
        for (int i = 0; i < weights.length; i++) {
            run += weights[i] / total;
            cdf[i] = run;
        }
        cdf[weights.length - 1] = 1.0;
        return cdf;
    }

    private static int pick(double[] cdf, double u) {
        int lo = 0;
        int hi = cdf.length - 1;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (u < cdf[mid]) {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        return lo;
    }
}
