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

    /**
     * The request fields most responses vary on, passed on when a response's Vary is not known:
     * enough to pick the variant browsers ask for, and nothing that identifies the user.
     */
    public static final List<String> SAFE_SELECTING_FIELDS = List.of("accept", "accept-encoding", "accept-language");
    /** Request fields a shared cache never passes on, whatever a response varies on. */
    public static final Set<String> NEVER_FORWARDED = Set.of("cookie", "authorization", "proxy-authorization");

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
        return key(varyFields(response), request);
    }

    /**
     * The secondary key of {@code request} for a response that varies on {@code fields} (lower-case,
     * as {@link #varyFields} gives them, e.g. from a provider's variant record); empty if they include "*".
     */
    public static Optional<VariantKey> key(List<String> fields, Headers request) {
        if (fields.contains("*")) {
            return Optional.empty();
        }
        Set<String> names = new TreeSet<>();
        fields.forEach(f -> names.add(f.toLowerCase(Locale.ROOT)));
        List<VariantKey.Entry> entries = new ArrayList<>(names.size());
        for (String name : names) {
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
     * The fields of {@code request} a shared cache may pass on so that its fetch selects the same
     * variant: those {@code varyFields} names when the response's Vary is known, otherwise
     * {@link #SAFE_SELECTING_FIELDS}. Credentials ({@link #NEVER_FORWARDED}) are never included, even
     * when a response varies on them: that variant is then the anonymous one.
     */
    public static Headers selectingFields(Headers request, Optional<List<String>> varyFields) {
        List<Headers.Field> kept = new ArrayList<>();
        Set<String> wanted = new TreeSet<>();
        for (String name : varyFields.orElse(SAFE_SELECTING_FIELDS)) {
            wanted.add(name.toLowerCase(Locale.ROOT));
        }
        wanted.removeAll(NEVER_FORWARDED);
        for (Headers.Field f : request.fields()) {
            if (wanted.contains(f.name().toLowerCase(Locale.ROOT))) {
                kept.add(f);
            }
        }
        return Headers.of(kept);
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
