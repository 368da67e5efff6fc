package io.riptide.dolr.location;

/**
 * A node's locates so far: answered, failed, hedged with a second attempt, hedges whose second
 * attempt answered first, locates whose replica this node chose itself among rivals a pointer
 * holder named, and locates that reached this node as their root with no pointer here and went on to
 * its leaf-set member nearest the GUID.
 */
public record LocateStats(long located, long failed, long hedged, long hedgeWins, long chosenByRequester, long rootsAsked) {
}
