package io.riptide.core.http;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Decides whether a shared cache may store a response (RFC 9111 §3, §3.5). */
public final class Storability {
    private final SetCookiePolicy setCookie;

    /** Rules with the given Set-Cookie policy. */
    public Storability(SetCookiePolicy setCookie) {
        this.setCookie = setCookie;
    }

    /** Rules with the default policy: responses that set cookies are refused. */
    public Storability() {
        this(SetCookiePolicy.REFUSE);
    }

    /**
     * Whether the response to {@code method} with request headers {@code request} may be stored.
     * The first rule that forbids storage gives the reason. A storable HEAD response has no body:
     * callers keep its headers only, e.g. to freshen a stored GET response (RFC 9111 §4.3.5).
     */
    public StorageDecision decide(String method, Headers request, int status, Headers response) {
        if (!method.equals("GET") && !method.equals("HEAD")) {
            return StorageDecision.refuse("request method " + method + " is not cached (only GET and HEAD are)");
        }
        if (!StatusCodes.isFinal(status)) {
            return StorageDecision.refuse("status " + status + " is not a final response");
        }
        CacheControl req = CacheControl.ofRequest(request);
        CacheControl res = CacheControl.ofResponse(response);
        if (req.noStore()) {
            return StorageDecision.refuse("request has Cache-Control: no-store");
        }
        boolean understood = StatusCodes.isUnderstood(status);
        if (res.mustUnderstand() && !understood) {
            return StorageDecision.refuse(
                    "response has Cache-Control: must-understand and status " + status + " is not one Riptide caches");
        }
        // must-understand overrides no-store for a cache that implements the status (RFC 9111 §5.2.2.3).
        if (res.noStore() && !(res.mustUnderstand() && understood)) {
            return StorageDecision.refuse("response has Cache-Control: no-store");
        }
        if (status == 206) {
            return StorageDecision.refuse("partial content (206) is not stored: Riptide stores whole objects only");
        }
        if (status == 304) {
            return StorageDecision.refuse("304 Not Modified is not a complete response; it only freshens a stored one");
        }
        if (res.isPrivate()) {
            return StorageDecision.refuse("response has Cache-Control: private (a shared cache must not store it)");
        }
        if (request.contains("Authorization") && !(res.isPublic() || res.sMaxAge().isPresent() || res.mustRevalidate())) {
            return StorageDecision.refuse("request has Authorization and the response has none of public, s-maxage"
                    + " or must-revalidate (RFC 9111 §3.5)");
        }
        if (response.elements("Vary").stream().anyMatch(v -> v.equals("*"))) {
            return StorageDecision.refuse("response has Vary: * (it can never match a later request)");
        }
        List<String> unforwarded = Variants.unforwarded(Variants.varyFields(response));
        if (!unforwarded.isEmpty()) {
            return StorageDecision.refuse("response varies on " + String.join(", ", unforwarded)
                    + ", which this shared cache never forwards (only " + String.join(", ", Variants.SELECTING_FIELDS)
                    + " select variants), so it cannot store the variant a later request asks for");
        }
        Set<String> strip = new TreeSet<>(ConnectionFields.in(response));
        // A shared cache must not store the named fields but may store the rest (RFC 9111 §5.2.2.7).
        strip.addAll(res.privateFields());
        // no-cache="f" forbids reusing f without revalidation (§5.2.2.4); never storing f satisfies that.
        strip.addAll(res.noCacheFields());
        if (response.contains("Set-Cookie")) {
            if (setCookie == SetCookiePolicy.REFUSE) {
                return StorageDecision.refuse("response has Set-Cookie; this shared cache is configured not to store"
                        + " responses that set cookies");
            }
            strip.add("set-cookie");
        }
        String explicit = explicitFreshness(res, response);
        if (explicit != null) {
            return StorageDecision.store("storable: explicit freshness (" + explicit + ")", strip);
        }
        if (StatusCodes.isHeuristicallyCacheable(status)) {
            return StorageDecision.store("storable: status " + status + " is heuristically cacheable", strip);
        }
        return StorageDecision.refuse("status " + status + " is not heuristically cacheable and the response has no"
                + " explicit freshness (max-age, s-maxage, Expires or public)");
    }

    /** The directive that makes the response cacheable on its own (RFC 9111 §3), or null. */
    private static String explicitFreshness(CacheControl res, Headers response) {
        if (res.sMaxAge().isPresent()) {
            return "s-maxage";
        }
        if (res.maxAge().isPresent()) {
            return "max-age";
        }
        if (response.contains("Expires")) {
            return "Expires";
        }
        return res.isPublic() ? "public" : null;
    }
}
