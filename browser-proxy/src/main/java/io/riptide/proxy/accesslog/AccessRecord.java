package io.riptide.proxy.accesslog;

/**
 * One request as the access log records it.
 *
 * @param startMillis   when its head arrived (epoch ms)
 * @param elapsedMillis until its response's last byte went out
 * @param client        the browser's address
 * @param method        the request method
 * @param url           the absolute URL (or host:port for CONNECT)
 * @param status        the status sent, 0 when none was (the connection closed)
 * @param bytes         response body bytes sent
 * @param cacheStatus   the Cache-Status value sent, without the proxy's name ({@code hit; detail=memory},
 *                      {@code fwd=miss; detail=not-found}), or for CONNECT {@code tunnel}, or {@code intercept}
 *                      ({@code intercept-refused} when the origin's certificate did not verify)
 * @param contentType   the response's Content-Type, or null
 */
public record AccessRecord(long startMillis, long elapsedMillis, String client, String method, String url, int status,
        long bytes, String cacheStatus, String contentType) {
}
