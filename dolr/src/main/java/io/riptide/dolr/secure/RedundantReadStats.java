package io.riptide.dolr.secure;

/**
 * A node's redundant reads so far.
 *
 * @param reads          reads asked for
 * @param succeeded      reads answered with bytes that passed verification
 * @param widened        reads that needed more than the plain attempt
 * @param extraAttempts  attempts beyond the plain one, over all reads
 * @param refused        answers refused because their bytes failed verification
 * @param listings       replica lists asked of a GUID's roots (its own and the salted ones) by widened reads
 * @param directReads    holders named by those lists and read directly
 */
public record RedundantReadStats(long reads, long succeeded, long widened, long extraAttempts, long refused, long listings,
                                 long directReads) {
}
