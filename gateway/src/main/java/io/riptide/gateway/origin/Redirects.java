package io.riptide.gateway.origin;

import io.riptide.gateway.origin.FetchException.Reason;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.Set;

/** Decides where a redirect leads, and refuses the ones the fetcher must not follow. */
final class Redirects {
    private Redirects() {
    }

    /**
     * The canonical URL that {@code location} (from a redirect answering {@code current}) leads to,
     * added to {@code visited}.
     *
     * @param followed redirects already followed in this fetch
     * @throws FetchException MALFORMED_RESPONSE for a Location that can't be fetched,
     *     INSECURE_REDIRECT from https to http, REDIRECT_LOOP back to a visited URL,
     *     TOO_MANY_REDIRECTS past {@code max}
     */
    static URI next(URI current, String location, Set<URI> visited, int followed, int max) throws FetchException {
        URI resolved;
        try {
            resolved = current.resolve(new URI(location.strip()));
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new FetchException(Reason.MALFORMED_RESPONSE, current,
                    "origin " + current + " redirected to an invalid Location: " + e.getMessage(), e);
        }
        String problem = Urls.problem(resolved);
        if (problem != null) {
            throw new FetchException(Reason.MALFORMED_RESPONSE, current,
                    "origin " + current + " redirected to " + Urls.redacted(resolved) + ", which " + problem);
        }
        URI next = Urls.canonical(resolved);
        if (current.getScheme().equalsIgnoreCase("https") && next.getScheme().equals("http")) {
            throw new FetchException(Reason.INSECURE_REDIRECT, current,
                    "origin " + current + " redirected to " + next + "; refusing to go from https to http");
        }
        if (visited.contains(next)) {
            throw new FetchException(Reason.REDIRECT_LOOP, current,
                    "origin " + current + " redirected back to " + next + ", already visited in this fetch (a redirect loop)");
        }
        if (followed >= max) {
            throw new FetchException(Reason.TOO_MANY_REDIRECTS, current,
                    "origin " + current + " redirected to " + next + " after " + followed
                    + " redirects already; the limit is " + max);
        }
        visited.add(next);
        return next;
    }
}
