package io.riptide.gateway.push;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.gateway.GatewayMessages.InsertReply;
import io.riptide.core.gateway.GatewayMessages.Outcome;
import io.riptide.core.gateway.GatewayMessages.PublisherPush;
import io.riptide.core.http.CanonicalUrl;
import io.riptide.core.id.Id;
import io.riptide.core.object.StoredResponse;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.OverlayNode;
import io.riptide.gateway.GatewayConfig;
import io.riptide.gateway.insert.InsertResult;
import io.riptide.gateway.insert.Inserter;
import java.net.URI;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Publisher push: an origin that owns a URL pushes its new content, signed with its publisher key,
 * and the gateway stores it as the next version without fetching. Only publishers configured for
 * the URL's host are accepted; a push whose timestamp is not newer than the last one accepted for
 * that URL, or too far from this gateway's clock, is refused (replays).
 */
public final class PushHandler {
    private final OverlayNode node;
    private final Env env;
    private final GatewayConfig config;
    private final Inserter inserter;
    private final Map<String, Long> lastAccepted = new LinkedHashMap<>(64, 0.75f, true);
    private long refused;

    public PushHandler(OverlayNode node, GatewayConfig config, Inserter inserter) {
        this.node = node;
        this.env = node.env();
        this.config = config;
        this.inserter = inserter;
    }

    /** Pushes refused so far. */
    public long refused() {
        return refused;
    }

    /** Handles a push from {@code from}; the outcome goes back to it as an insert reply. */
    public void onPush(NodeHandle from, PublisherPush push) {
        String problem = check(push);
        CanonicalUrl url = null;
        if (problem == null) {
            try {
                url = CanonicalUrl.of(push.url());
            } catch (IllegalArgumentException e) {
                problem = "not a URL: " + e.getMessage();
            }
        }
        if (problem != null) {
            refused++;
            reply(from, new InsertResult(push.url(), Id.ZERO, 0, Outcome.REJECTED, "push refused: " + problem), push.requestId());
            return;
        }
        lastAccepted.put(url.value(), push.timestampMillis());
        if (lastAccepted.size() > 100_000) {
            lastAccepted.remove(lastAccepted.keySet().iterator().next());
        }
        StoredResponse content = new StoredResponse(push.status(), "OK", push.headers(), push.body());
        inserter.insertPushed(url, content, push.timestampMillis(), result -> reply(from, result, push.requestId()));
    }

    private String check(PublisherPush push) {
        String host;
        try {
            host = URI.create(push.url()).getHost();
        } catch (IllegalArgumentException e) {
            return "not a URL: " + push.url();
        }
        if (host == null) {
            return "no host in " + push.url();
        }
        PublicKey allowed = config.publishers().get(host.toLowerCase(Locale.ROOT));
        if (allowed == null) {
            return "no publisher is configured for " + host;
        }
        if (!Arrays.equals(allowed.toBytes(), push.publisherKey())) {
            return "the key is not the publisher's key for " + host;
        }
        byte[] signed = PushSignatures.signedBytes(push.url(), push.status(), push.headers(), push.body(), push.timestampMillis());
        if (!allowed.verify(signed, push.signature())) {
            return "bad signature";
        }
        long skew = Math.abs(env.wallClockMillis() - push.timestampMillis());
        if (skew > config.pushClockSkew().toMillis()) {
            return "timestamp " + skew / 1000 + " s away from the gateway's clock";
        }
        try {
            Long last = lastAccepted.get(CanonicalUrl.of(push.url()).value());
            if (last != null && push.timestampMillis() <= last) {
                return "not newer than the last push for this URL (a replay?)";
            }
        } catch (IllegalArgumentException e) {
            return "not a URL: " + e.getMessage();
        }
        if (push.status() != 200) {
            return "only 200 responses can be pushed, got " + push.status();
        }
        return null;
    }

    private void reply(NodeHandle to, InsertResult r, long requestId) {
        InsertReply reply = new InsertReply(requestId, r.url(), r.guid(), r.version(), r.outcome(), r.reason());
        node.send(to.address(), reply);
    }
}
