package io.riptide.dolr.location;

/**
 * A node's locates so far: answered, failed, hedged with a second attempt, hedges whose second
 * attempt answered first, and locates whose replica this node chose itself among rivals a pointer
 * holder named.
 */
public record LocateStats(long located, long failed, long hedged, long hedgeWins, long chosenByRequester) {
}
