package io.riptide.gateway.insert;

import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.ObjectCertificate;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.Tombstone;
import io.riptide.core.object.VariantRecord;
import io.riptide.core.runtime.Env;
import io.riptide.dolr.server.ServerSettings;
import io.riptide.gateway.insert.PurgeResult.Outcome;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * An operator's takedown ({@code riptide purge URL}): the gateway signs a {@link Tombstone} one
 * version above what the overlay holds at the URL's base GUID (and above the node's version floor),
 * and one for each variant of the URL it knows, stores each as the primary copy and sends it down the
 * object's dissemination tree like any new version. Replicas check it and drop the body; readers that
 * meet it go to the origin and, having seen its version, refuse any older copy. From then on the
 * {@link Inserter} refuses to insert the URL again. On the node's loop.
 */
public final class Purger {
    private final Inserter inserter;
    private final Env env;
    private long purges;

    public Purger(Inserter inserter, Env env) {
        this.inserter = inserter;
        this.env = env;
    }

    /** Purges {@code rawUrl}; {@code done} hears how it ended, on the loop. */
    public void purge(String rawUrl, Consumer<PurgeResult> done) {
        CanonicalUrl url;
        try {
            url = CanonicalUrl.of(rawUrl);
        } catch (IllegalArgumentException e) {
            done.accept(new PurgeResult(Outcome.INVALID_URL, rawUrl, Id.ZERO, 0, 0,
                    "not a URL this gateway caches: " + e.getMessage()));
            return;
        }
        Id base = ObjectNames.objectGuid(inserter.provider().publicKey(), url.value(), "");
        inserter.resolveCurrent(base, copy -> {
            VariantRecord record = inserter.recordAt(base);
            List<CachedCopy> variants = new ArrayList<>();
            for (CachedCopy v : inserter.knownVariants(url.value())) {
                if (!v.object().certificate().isTombstone()) {
                    variants.add(v);
                }
            }
            if (copy != null && copy.object().certificate().isTombstone() && variants.isEmpty()) {
                inserter.purged(url.value());
                long version = copy.object().certificate().version();
                done.accept(new PurgeResult(Outcome.ALREADY_PURGED, url.value(), base, version, 0,
                        url.value() + " was already purged (tombstone version " + version + ")"));
                return;
            }
            if (copy == null && record == null && variants.isEmpty()) {
                done.accept(new PurgeResult(Outcome.NOT_CACHED, url.value(), Id.ZERO, 0, 0,
                        "nothing cached for " + url.value() + " under this gateway's provider key: nothing to purge"));
                return;
            }
            long held = Math.max(copy == null ? 0 : copy.object().certificate().version(),
                    record == null ? 0 : record.version());
            List<Target> targets = new ArrayList<>();
            targets.add(new Target(base, "", inserter.nextVersion(base, held + 1)));
            for (CachedCopy v : variants) {
                ObjectCertificate c = v.object().certificate();
                targets.add(new Target(c.guid(), c.variantKey(), inserter.nextVersion(c.guid(), c.version() + 1)));
            }
            sign(url.value(), targets, done);
        }, () -> done.accept(new PurgeResult(Outcome.RETRY, url.value(), Id.ZERO, 0, 0,
                "could not learn what the overlay holds for " + url.value() + " (the read timed out): try again")));
    }

    private record Target(Id guid, String variantKey, long version) {
    }

    private void sign(String url, List<Target> targets, Consumer<PurgeResult> done) {
        long now = env.wallClockMillis();
        boolean queued = env.submit(ServerSettings.CRYPTO_STAGE, () -> {
            List<CachedCopy> out = new ArrayList<>(targets.size());
            for (Target t : targets) {
                out.add(CachedCopy.of(Tombstone.sign(inserter.provider(), url, t.variantKey(), t.version(), now)));
            }
            return out;
        }, (tombstones, error) -> {
            if (error != null) {
                done.accept(new PurgeResult(Outcome.RETRY, url, Id.ZERO, 0, 0, "could not sign the tombstone: " + error));
                return;
            }
            // Marked before the tombstones leave: an insert that starts now is refused, not raced.
            inserter.purged(url);
            for (CachedCopy t : tombstones) {
                ObjectCertificate c = t.object().certificate();
                inserter.floor().raise(c.guid(), c.version()); // signed: never signed again
                inserter.remember(t);
                inserter.distribute(c.guid(), t.toBytes(), now, rooted -> { });
            }
            purges++;
            Target first = targets.get(0);
            done.accept(new PurgeResult(Outcome.PURGED, url, first.guid(), first.version(), targets.size() - 1,
                    url + " purged: tombstone version " + first.version()
                            + (targets.size() > 1 ? ", and " + (targets.size() - 1) + " variant(s)" : "")));
        });
        if (!queued) {
            done.accept(new PurgeResult(Outcome.RETRY, url, Id.ZERO, 0, 0, "gateway busy: the signing stage is full"));
        }
    }

    /** Purges that signed tombstones. */
    public long purges() {
        return purges;
    }
}
