package io.riptide.gateway.admin;

import io.riptide.core.object.KeyRecords;
import io.riptide.core.object.ObjectFormatException;
import io.riptide.dolr.admin.AdminAction;
import io.riptide.dolr.server.OverlayServer;
import io.riptide.gateway.Gateway;
import io.riptide.gateway.keys.RevokeResult;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST /revoke?records=BASE64} (URL-safe or standard alphabet) on a gateway's admin server ({@code riptide revoke}): the
 * stored form of a {@link KeyRecords} bundle holding one signed revocation (and the rotation that
 * gives its signer standing, if any). The gateway checks and publishes it
 * ({@link io.riptide.gateway.keys.KeyPublisher}): 200 revoked (or already), 400 refused.
 */
public final class RevokeAction implements AdminAction {
    /** The path the action answers on. */
    public static final String PATH = "/revoke";
    private static final Logger LOG = LoggerFactory.getLogger(RevokeAction.class);

    private final OverlayServer server;
    private final Supplier<Gateway> gateway;

    public RevokeAction(OverlayServer server, Supplier<Gateway> gateway) {
        this.server = server;
        this.gateway = gateway;
    }

    @Override
    public CompletableFuture<Answer> run(Map<String, List<String>> parameters) {
        List<String> given = parameters.getOrDefault("records", List.of());
        if (given.size() != 1 || given.get(0).isBlank()) {
            return CompletableFuture.completedFuture(new Answer(400, "give the revocation once: POST " + PATH + "?records=BASE64"));
        }
        KeyRecords records;
        try {
            // URL-safe base64 (riptide revoke's), or the standard alphabet with its '+' perhaps unescaped to a space.
            String text = given.get(0).strip().replace(' ', '+');
            records = KeyRecords.fromBytes(text.indexOf('-') >= 0 || text.indexOf('_') >= 0
                    ? Base64.getUrlDecoder().decode(text) : Base64.getDecoder().decode(text));
        } catch (IllegalArgumentException | ObjectFormatException e) {
            return CompletableFuture.completedFuture(new Answer(400, "not key records: " + e.getMessage()));
        }
        CompletableFuture<RevokeResult> result = OnNodeLoop.answer(server, done -> gateway.get().keys().revoke(records, done));
        return result.thenApply(r -> {
            if (r.ok()) {
                LOG.warn("operator revocation: {}", r.message());
            }
            return new Answer(r.ok() ? 200 : 400, r.message());
        });
    }
}
