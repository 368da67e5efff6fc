package io.riptide.core.http;

/**
 * What a shared cache does with a response that sets a cookie. RFC 9111 §7.3 leaves this to the
 * cache; a cookie is usually per-user state, so Riptide refuses such responses unless told otherwise.
 */
public enum SetCookiePolicy {
    /** Do not store a response carrying Set-Cookie (the default). */
    REFUSE,
    /** Store the response with its Set-Cookie fields removed, so no user ever receives another's cookie. */
    STRIP
}
