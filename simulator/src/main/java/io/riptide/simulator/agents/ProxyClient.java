package io.riptide.simulator.agents;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.hint.HintMessages.LoadReport;
import io.riptide.core.hint.HintMessages.MissHint;
import io.riptide.core.hint.HintMessages.StaleHint;
import io.riptide.core.id.Id;
import io.riptide.core.object.CachedCopy;
import io.riptide.core.object.ObjectNames;
import io.riptide.core.object.PushMode;
import io.riptide.core.runtime.Env;
import io.riptide.core.wire.WireMessage;
import io.riptide.dolr.OverlayNode;
import io.riptide.dolr.location.LocateResult;
import io.riptide.gateway.origin.OriginRequest;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * A browser proxy as the simulation sees it, on its access node: it reads a URL's object from the
 * overlay, serves the copy if RFC 9111 (or push mode) says it is current, and otherwise fetches from
 * the origin itself and hints the nearest cache manager (a miss or stale hint, at most one per URL
 * per hint interval), as the real proxy does. Optionally it reports its request counts per object
 * (load reports), which lets a cache manager see a crowd that produces no slow hits.
 */
public final class ProxyClient implements RequestPath {
    private final OverlayNode node;
    private final Env env;
    private final PublicKey provider;
    private final Id managerService;
    private final SimulatedOrigin origin;
    private final Duration hintInterval;
    private final int ttl;
    private final FreshnessJudge judge;
    private final Map<String, Long> lastHint = new HashMap<>();
    // Sorted so that load reports go out in the same order on every run.
    private final Map<Id, Integer> unreported = new TreeMap<>();

    /** A proxy on {@code node} trusting {@code provider}, with the real proxy's hop budget and hint interval. */
    public ProxyClient(OverlayNode node, PublicKey provider, SimulatedOrigin origin, PushMode pushMode, Duration hintInterval,
            int ttl) {
        this.node = node;
        this.env = node.env();
        this.provider = provider;
        this.managerService = ObjectNames.cacheManagerGuid(provider);
        this.origin = origin;
        this.hintInterval = hintInterval;
        this.ttl = ttl;
        this.judge = new FreshnessJudge(pushMode);
    }

    /** Sends a load report for each object requested since the last one, every {@code period}. */
    public void reportLoadEvery(Duration period) {
        env.periodic(period, this::reportLoad);
    }

    private void reportLoad() {
        unreported.forEach((guid, n) -> node.anycast(managerService, new LoadReport(guid, n), ttl, r -> { }));
        unreported.clear();
    }

    @Override
    public void get(String url, Consumer<ClientResult> done) {
        long start = env.nowNanos();
        Id guid = ObjectNames.objectGuid(provider, url, "");
        unreported.merge(guid, 1, Integer::sum);
        node.read(guid, ttl, r -> {
            if (!r.found() || r.data() == null) {
                fromOrigin(url, guid, r, ClientResult.Source.ORIGIN_MISS, -1, start, done);
                return;
            }
            CachedCopy copy = judge.decode(r.data());
            if (copy != null && judge.servable(url, copy, env.wallClockMillis())) {
                done.accept(new ClientResult(ClientResult.Source.REPLICA, r.replica(), r.hops(), env.nowNanos() - start,
                        copy.object().response().body().length));
            } else {
                long version = copy == null ? 0 : copy.object().certificate().version();
                fromOrigin(url, guid, r, ClientResult.Source.ORIGIN_STALE, version, start, done);
            }
        });
    }

    private void fromOrigin(String url, Id guid, LocateResult read, ClientResult.Source source, long staleVersion, long start,
            Consumer<ClientResult> done) {
        origin.fetch(env, OriginRequest.get(URI.create(url))).whenComplete((response, error) -> {
            // Like the real proxy, the hint follows the origin's answer.
            hint(url, source == ClientResult.Source.ORIGIN_STALE ? new StaleHint(url, guid, staleVersion) : new MissHint(url, guid));
            done.accept(new ClientResult(source, read.found() ? read.replica() : null, read.hops(), env.nowNanos() - start,
                    response == null ? -1 : response.body().length));
        });
    }

    private void hint(String url, WireMessage hint) {
        long now = env.nowNanos();
        Long last = lastHint.get(url);
        if (last != null && now - last < hintInterval.toNanos()) {
            return;
        }
        lastHint.put(url, now);
        node.anycast(managerService, hint, ttl, r -> { });
    }

    /** The access node. */
    public OverlayNode node() {
        return node;
    }

    @Override
    public Env env() {
        return env;
    }
}
