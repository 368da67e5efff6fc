package io.riptide.simulator.agents;

/**
 * The bytes a simulated proxy answered one request with, for checks that look at what users got.
 *
 * @param url              the canonical URL asked for
 * @param source           where the answer came from
 * @param body             the body the user got (null for a failed fetch)
 * @param certifiedVersion the version the provider certified, for a copy read from the overlay (a
 *                         replica, or the gateway's copy for this request); -1 for anything else
 */
public record ServedBody(String url, ClientResult.Source source, byte[] body, long certifiedVersion) {
    /** Whether the bytes are a provider's verified copy from the overlay, not the origin's own answer. */
    public boolean fromOverlay() {
        return certifiedVersion >= 0;
    }
}
