package io.riptide.core.http;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Validation: conditional requests, evaluating a client's conditions, and 304 handling (RFC 9110 §13, RFC 9111 §4.3). */
public final class Validators {
    /** Fields a 304 must not change: they describe the stored bytes, not the resource (RFC 9111 §3.2). */
    private static final Set<String> FRAMING = Set.of("content-length", "content-encoding", "content-range");

    private Validators() {}

    /** The stored response's entity tag, if it has a valid one. */
    public static Optional<EntityTag> etag(Headers response) {
        return response.first("ETag").flatMap(EntityTag::parse);
    }

    /**
     * The conditional request that revalidates {@code stored}: If-None-Match with every stored
     * entity tag, and If-Modified-Since with the stored Last-Modified copied verbatim, so the origin
     * compares its own string (RFC 9111 §4.3.1, RFC 9110 §13.1.3).
     */
    public static ConditionalRequest conditionalRequest(List<Headers> stored) {
        Set<String> tags = new LinkedHashSet<>();
        Optional<String> lastModified = Optional.empty();
        for (Headers h : stored) {
            etag(h).ifPresent(t -> tags.add(t.toString()));
            if (lastModified.isEmpty()) {
                lastModified = h.first("Last-Modified");
            }
        }
        return new ConditionalRequest(tags.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", tags)),
                lastModified);
    }

    /** The conditional request that revalidates one stored response. */
    public static ConditionalRequest conditionalRequest(Headers stored) {
        return conditionalRequest(List.of(stored));
    }

    /**
     * Whether a client's conditional GET/HEAD is satisfied by {@code stored}, i.e. the cache may answer
     * 304. If-None-Match uses weak comparison and, when present, makes If-Modified-Since ignored
     * (RFC 9110 §13.1.2, §13.1.3, §13.2.2).
     */
    public static boolean notModified(Headers request, Headers stored, Instant reference) {
        List<String> inm = request.elements("If-None-Match");
        if (!inm.isEmpty()) {
            if (inm.contains("*")) {
                return true;
            }
            Optional<EntityTag> current = etag(stored);
            return current.isPresent()
                    && inm.stream().map(EntityTag::parse).flatMap(Optional::stream).anyMatch(current.get()::weakMatch);
        }
        Optional<Instant> since = request.first("If-Modified-Since").flatMap(v -> HttpDates.parse(v, reference));
        Optional<Instant> modified = stored.first("Last-Modified").flatMap(v -> HttpDates.parse(v, reference));
        return since.isPresent() && modified.isPresent() && !modified.get().isAfter(since.get());
    }

    /**
     * Whether a 304 refers to {@code stored} (RFC 9111 §4.3.4): a strong entity tag must match strongly;
     * a weak one weakly; else a Last-Modified must name the same instant (compared as HTTP-dates, so
     * the same date spelled in another form matches; values that are no HTTP-date must be equal as
     * strings). A 304 without validators is accepted: the cache asked about exactly this stored
     * response. {@code reference} is now, for two-digit years (see {@link HttpDates#parse}).
     */
    public static boolean selects(Headers notModified, Headers stored, Instant reference) {
        Optional<EntityTag> tag = etag(notModified);
        if (tag.isPresent()) {
            Optional<EntityTag> mine = etag(stored);
            return mine.isPresent() && (tag.get().weak() ? tag.get().weakMatch(mine.get()) : tag.get().strongMatch(mine.get()));
        }
        Optional<String> lm = notModified.first("Last-Modified");
        if (lm.isPresent()) {
            Optional<String> mine = stored.first("Last-Modified");
            if (mine.isEmpty()) {
                return false;
            }
            Optional<Instant> theirs = HttpDates.parse(lm.get(), reference);
            Optional<Instant> ours = HttpDates.parse(mine.get(), reference);
            return theirs.isPresent() && ours.isPresent() ? theirs.get().equals(ours.get()) : lm.get().strip().equals(mine.get().strip());
        }
        return true;
    }

    /**
     * The stored header fields freshened with a 304's (RFC 9111 §3.2, §4.3.4): every field in the 304
     * replaces the stored ones of that name, except connection-specific fields and the fields that
     * frame the stored content (Content-Length, Content-Encoding, Content-Range).
     */
    public static Headers freshen(Headers stored, Headers notModified) {
        Set<String> skip = new LinkedHashSet<>(FRAMING);
        skip.addAll(ConnectionFields.in(notModified));
        Set<String> replaced = new LinkedHashSet<>();
        for (Headers.Field f : notModified.fields()) {
            String name = Headers.normalise(f.name());
            if (!skip.contains(name)) {
                replaced.add(name);
            }
        }
        List<Headers.Field> out = new ArrayList<>();
        for (Headers.Field f : stored.fields()) {
            if (!replaced.contains(Headers.normalise(f.name()))) {
                out.add(f);
            }
        }
        for (Headers.Field f : notModified.fields()) {
            if (replaced.contains(Headers.normalise(f.name()))) {
                out.add(f);
            }
        }
        return Headers.of(out);
    }
}
