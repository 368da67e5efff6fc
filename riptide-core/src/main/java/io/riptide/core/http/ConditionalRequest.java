package io.riptide.core.http;

import java.util.Optional;

/**
 * The validator fields a cache sends to revalidate what it stores (RFC 9111 §4.3.1).
 *
 * @param ifNoneMatch the If-None-Match value (the stored entity tags), if any
 * @param ifModifiedSince the If-Modified-Since value (the stored Last-Modified, verbatim), if any
 */
public record ConditionalRequest(Optional<String> ifNoneMatch, Optional<String> ifModifiedSince) {
    /** Whether there is anything to validate with; without validators only a full fetch can refresh. */
    public boolean hasValidators() {
        return ifNoneMatch.isPresent() || ifModifiedSince.isPresent();
    }

    /** {@code request} with these validator fields set (replacing any the client sent). */
    public Headers applyTo(Headers request) {
        Headers out = request.without("If-None-Match").without("If-Modified-Since")
                .without("If-Match").without("If-Unmodified-Since").without("If-Range");
        if (ifNoneMatch.isPresent()) {
            out = out.with("If-None-Match", ifNoneMatch.get());
        }
        if (ifModifiedSince.isPresent()) {
            out = out.with("If-Modified-Since", ifModifiedSince.get());
        }
        return out;
    }
}
