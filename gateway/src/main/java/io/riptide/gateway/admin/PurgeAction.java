package io.riptide.gateway.admin;

import io.riptide.dolr.admin.AdminAction;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.gateway.Gateway;
import io.riptide.gateway.insert.PurgeResult;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /purge?url=URL} on a gateway's admin server ({@code riptide purge}): the gateway takes
 * the URL down ({@link io.riptide.gateway.insert.Purger}) and says how it went: 200 purged (or already
 * purged), 404 nothing cached for it, 400 not a URL, 503 try again.
 */
public final class PurgeAction implements AdminAction {
    /** The path the action answers on. */
    public static final String PATH = "/purge";
    private static final Logger LOG = LoggerFactory.getLogger(PurgeAction.class);

    private final OverlayServer server;
    private final Supplier<Gateway> gateway;

    public PurgeAction(OverlayServer server, Supplier<Gateway> gateway) {
        this.server = server;
        this.gateway = gateway;
    }

    @Override
    public CompletableFuture<Answer> run(Map<String, List<String>> parameters) {
        List<String> urls = parameters.getOrDefault("url", List.of());
        if (urls.size() != 1 || urls.get(0).isBlank()) {
            return CompletableFuture.completedFuture(new Answer(400, "give the URL to purge once: POST " + PATH + "?url=URL"));
        }
        // The purger is protocol code: it runs on the node's loop, like everything the node does.
        CompletableFuture<PurgeResult> result = OnNodeLoop.answer(server, done -> gateway.get().purger().purge(urls.get(0), done));
        return result.thenApply(r -> {
            if (r.ok()) {
                LOG.info("operator purge: {}", r.message());
            }
            return new Answer(status(r.outcome()), r.message());
        });
    }

    private static int status(PurgeResult.Outcome outcome) {
        switch (outcome) {
            case PURGED:
            case ALREADY_PURGED:
                return 200;
            case NOT_CACHED:
                return 404;
            case INVALID_URL:
                return 400;
            default:
                return 503;
        }
    }
}
