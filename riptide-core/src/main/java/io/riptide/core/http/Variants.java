package io.riptide.core.http;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/** Vary handling (RFC 9111 §4.1): which stored variant answers which request. */
public final class Variants {
    /**
     * Fields whose list members are case-insensitive tokens or language tags, so their values are
     * lower-cased (RFC 9110 §12.5.3, §12.5.4; RFC 5646 §2.1.1).
     */
    private static final Set<String> CASE_INSENSITIVE = Set.of("accept-encoding", "accept-language", "accept-charset");

    private Variants() {}

    /** The lower-case field names a response varies on, sorted and without duplicates ("*" included). */
    public static List<String> varyFields(Headers response) {
        Set<String> names = new TreeSet<>();
        for (String v : response.elements("Vary")) {
            names.add(v.toLowerCase(Locale.ROOT));
        }
        return List.copyOf(names);
    }

    /** The secondary key of {@code request} for {@code response}; empty for {@code Vary: *}, which never matches. */
    public static Optional<VariantKey> key(Headers response, Headers request) {
        List<String> fields = varyFields(response);
        if (fields.contains("*")) {
            return Optional.empty();
        }
        List<VariantKey.Entry> entries = new ArrayList<>(fields.size());
        for (String name : fields) {
            entries.add(new VariantKey.Entry(name, normalisedValue(request, name)));
        }
        return Optional.of(new VariantKey(entries));
    }

    /**
     * Whether a response stored with {@code storedKey} (its request's key) may answer {@code request}:
     * the newly computed key must equal the stored one (RFC 9111 §4.1).
     */
    public static boolean matches(Headers storedResponse, VariantKey storedKey, Headers request) {
        return key(storedResponse, request).map(storedKey::equals).orElse(false);
    }

    /**
     * A field's value with the normalisations RFC 9111 §4.1 allows: field lines combined, whitespace
     * around list commas removed, runs of whitespace collapsed, case folded where the field is
     * case-insensitive. Empty when the request lacks the field.
     */
    static Optional<String> normalisedValue(Headers request, String name) {
        if (!request.contains(name)) {
            return Optional.empty();
        }
        List<String> members = new ArrayList<>();
        for (String m : request.elements(name)) {
            String collapsed = m.replaceAll("[ \t]+", " ").replaceAll(" ?; ?", ";");
            members.add(CASE_INSENSITIVE.contains(name) ? collapsed.toLowerCase(Locale.ROOT) : collapsed);
        }
        return Optional.of(String.join(",", members));
    }
}
