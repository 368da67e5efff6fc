package io.riptide.simulator.faults;

import io.riptide.simulator.agents.ClientResult;
import io.riptide.simulator.agents.OriginDocument;
import io.riptide.simulator.agents.ServedBody;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * What users get, checked answer by answer as each proxy gives it. Every body must be, byte for
 * byte, a version the origin served ({@code verified-bytes}): a proxy serves only what verified, so a
 * corrupt, truncated or foreign body means a check let it through. And a proxy must never answer
 * from the overlay with an older version than one it answered from the overlay before
 * ({@code no-going-back}), neither by content nor by certified version: its version floor exists for
 * that. Answers the proxy fetched from the origin itself are checked for their bytes only: the
 * origin's answer is current by definition, and RFC 9111 lets a shared cache serve a copy still fresh
 * that predates it, so an overlay copy after an origin fetch may be older without anything being wrong.
 */
public final class ServedBytes {
    private final Invariant verified = new Invariant("verified-bytes",
            "every body a proxy answers with is, byte for byte, a version of the document the origin served");
    private final Invariant noGoingBack = new Invariant("no-going-back",
            "a proxy never answers from the overlay with an older version (by content or by certified version) than one"
                    + " it answered from the overlay before");
    private final Map<String, OriginDocument> documents;
    private final LongSupplier now;
    /** Per proxy, per URL: the newest content version and certified version it served from the overlay. */
    private final Map<Integer, Map<String, long[]>> newest = new HashMap<>();
    private final Map<ClientResult.Source, Long> answers = new EnumMap<>(ClientResult.Source.class);

    /** Checks answers for {@code documents} (by canonical URL), timed by {@code nowNanos}. */
    public ServedBytes(Map<String, OriginDocument> documents, LongSupplier nowNanos) {
        this.documents = Map.copyOf(documents);
        this.now = nowNanos;
    }

    /** The watcher for the proxy on {@code vertex}'s host. */
    public Consumer<ServedBody> watcher(int vertex) {
        Map<String, long[]> mine = newest.computeIfAbsent(vertex, v -> new HashMap<>());
        return served -> observe(vertex, mine, served);
    }

    private void observe(int vertex, Map<String, long[]> mine, ServedBody served) {
        if (served.body() == null) {
            return; // the origin failed: nothing was served
        }
        answers.merge(served.source(), 1L, Long::sum);
        OriginDocument doc = documents.get(served.url());
        long version = doc == null ? -1 : doc.versionOf(served.body());
        long t = now.getAsLong();
        verified.check(version >= 0, t, () -> "proxy at vertex " + vertex + " answered " + served.url() + " from "
                + served.source() + " with " + served.body().length + " bytes that are no version of the document");
        if (!served.fromOverlay() || version < 0) {
            return;
        }
        long[] seen = mine.computeIfAbsent(served.url(), u -> new long[] {-1, -1});
        long content = seen[0];
        long certified = seen[1];
        noGoingBack.check(version >= content && served.certifiedVersion() >= certified, t, () -> "proxy at vertex " + vertex
                + " answered " + served.url() + " from the overlay with content v" + version + " (certified version "
                + served.certifiedVersion() + ") after it had served content v" + content + " (certified " + certified + ")");
        seen[0] = Math.max(content, version);
        seen[1] = Math.max(certified, served.certifiedVersion());
    }

    public Invariant verified() {
        return verified;
    }

    public Invariant noGoingBack() {
        return noGoingBack;
    }

    /** Answers with a body, by where they came from. */
    public Map<ClientResult.Source, Long> answers() {
        return Map.copyOf(answers);
    }
}
