package io.riptide.gateway.push;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.riptide.core.crypto.SigningKey;
import io.riptide.core.gateway.GatewayMessages;
import io.riptide.core.gateway.GatewayMessages.PublisherPush;
import io.riptide.core.http.Headers;
import io.riptide.core.wire.WireWriter;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * What a publisher signs to push a new version of a URL: a domain label, the URL, the response's
 * status and headers, the SHA-256 of its body and a timestamp. Signing the digest, not the body,
 * keeps the signed bytes small; the timestamp stops replays.
 */
public final class PushSignatures {
    private static final String LABEL = "riptide/publisher-push/1";

    private PushSignatures() {
    }

    /** The bytes a publisher signs for {@code push} (its own signature field is not included). */
    public static byte[] signedBytes(String url, int status, Headers headers, byte[] body, long timestampMillis) {
        ByteBuf buf = Unpooled.buffer(256 + url.length());
        try {
            WireWriter out = new WireWriter(buf);
            out.string(LABEL).string(url).u16(status);
            GatewayMessages.writeHeaders(out, headers);
            out.bytes(sha256(body)).i64(timestampMillis);
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            return bytes;
        } finally {
            buf.release();
        }
    }

    /** A signed push of {@code body} as the new content of {@code url}. */
    public static PublisherPush sign(SigningKey publisher, long requestId, String url, int status, Headers headers, byte[] body,
                                     long timestampMillis) {
        byte[] signature = publisher.sign(signedBytes(url, status, headers, body, timestampMillis));
        return new PublisherPush(requestId, url, status, headers, body, publisher.publicKey().toBytes(), timestampMillis, signature);
    }

    static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }
}
