package io.riptide.dolr.location;

/**
 * A node's locates so far: answered, failed, hedged with a second attempt, and hedges whose second
 * attempt answered first.
 */
public record LocateStats(long located, long failed, long hedged, long hedgeWins) {
}
