package io.riptide.dolr.dissemination;

/**
 * One node's counts of tree updates it sent and received, for experiments and status pages.
 *
 * @param fullSent       updates sent to children carrying the full data
 * @param fullBytesSent  their bodies' bytes
 * @param deltasSent     updates sent to children carrying a delta
 * @param deltaBytesSent their bodies' bytes
 * @param deltasApplied  deltas received that rebuilt exactly the published version
 * @param deltasRefused  deltas received against a base this node did not hold, malformed, or not
 *                       rebuilding the published digest; each made it ask its parent for the full data
 * @param corruptUpdates full updates whose data did not match their digest
 */
public record TreeStats(long fullSent, long fullBytesSent, long deltasSent, long deltaBytesSent, long deltasApplied,
        long deltasRefused, long corruptUpdates) {
}
