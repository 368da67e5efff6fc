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
     * Fields whose list members are case-insensitive media ranges, tokens or language tags, so their
     * values are lower-cased (RFC 9110 §8.3.1, §12.5.1, §12.5.3, §12.5.4; RFC 5646 §2.1.1).
     */
    private static final Set<String> CASE_INSENSITIVE = Set.of("accept", "accept-encoding", "accept-language", "accept-charset");

    /**
     * The only request fields that select a variant in Riptide: hints carry them through untrusted
     * overlay nodes and gateways fetch with them, so they must pick the variant browsers ask for and
     * say nothing that identifies the user. A response that varies on any other field is not stored
     * (see {@link #unforwarded}).
     */
    public static final List<String> SELECTING_FIELDS = List.of("accept", "accept-encoding", "accept-language");
    /** How long a selecting field's normalised value may be; a longer one is not passed on. */
    public static final int MAX_SELECTING_VALUE = 256;
    private static final List<String> SELECTING_NAMES = List.of("Accept", "Accept-Encoding", "Accept-Language");

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
     * variant: of {@link #SELECTING_FIELDS}, those {@code varyFields} names when the response's Vary is
     * known, else all of them. Nothing else ever leaves (no credentials, no API keys, whatever a
     * response varies on). Each is one field line, normalised: whitespace collapsed, lower-cased,
     * members joined by ", "; a value longer than {@link #MAX_SELECTING_VALUE} is left out.
     */
    public static Headers selectingFields(Headers request, Optional<List<String>> varyFields) {
        Set<String> wanted = new TreeSet<>();
        for (String name : varyFields.orElse(SELECTING_FIELDS)) {
            wanted.add(name.toLowerCase(Locale.ROOT).strip());
        }
        List<Headers.Field> kept = new ArrayList<>();
        for (int i = 0; i < SELECTING_FIELDS.size(); i++) {
            String name = SELECTING_FIELDS.get(i);
            if (!wanted.contains(name) || !request.contains(name)) {
                continue;
            }
            List<String> members = new ArrayList<>();
            for (String m : request.elements(name)) {
                String v = m.replaceAll("\\s+", " ").strip().toLowerCase(Locale.ROOT);
                if (!v.isEmpty()) {
                    members.add(v);
                }
            }
            String value = String.join(", ", members);
            if (value.length() <= MAX_SELECTING_VALUE) {
                kept.add(new Headers.Field(SELECTING_NAMES.get(i), value));
            }
        }
        return Headers.of(kept);
    }

    /**
     * The fields (lower-case, sorted) {@code varyFields} names outside {@link #SELECTING_FIELDS}:
     * a shared cache never passes those on, so it cannot fetch, and must not store, such a response's
     * variants. Empty when every field is one of them; "*" is reported as is.
     */
    public static List<String> unforwarded(List<String> varyFields) {
        Set<String> out = new TreeSet<>();
        for (String f : varyFields) {
            String name = f.toLowerCase(Locale.ROOT).strip();
            if (!SELECTING_FIELDS.contains(name)) {
                out.add(name);
            }
        }
        return List.copyOf(out);
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
