package io.riptide.core.stage;

/**
 * The SEDA thread pool controller's growth rule: add a worker when the queue has stayed above the
 * threshold for {@link #SAMPLES_TO_GROW} consecutive samples and the pool is below its maximum.
 *
 * <p>Shrinking is left to the workers themselves (an idle worker retires), so this decides growth
 * only. Called from one controller thread, hence no synchronisation.
 */
final class PoolController {
    /**
     * Consecutive samples over the threshold before growing: one sample could be a momentary burst
     * that the current workers clear on their own.
     */
    static final int SAMPLES_TO_GROW = 2;

    private final int threshold;
    private final int maxThreads;
    private int samplesAbove;

    PoolController(int threshold, int maxThreads) {
        this.threshold = threshold;
        this.maxThreads = maxThreads;
    }

    /** Takes one sample; true when a worker should be added now. */
    boolean shouldGrow(int queueLength, int threads) {
        if (queueLength <= threshold) {
            samplesAbove = 0;
            return false;
        }
        samplesAbove++;
        if (samplesAbove >= SAMPLES_TO_GROW && threads < maxThreads) {
            // Start counting afresh so the new worker gets a chance to drain before the next one.
            samplesAbove = 0;
            return true;
        }
        return false;
    }
}
