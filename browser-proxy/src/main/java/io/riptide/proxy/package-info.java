/**
 * The browser-proxy agent as run for real: an HTTP/1.1 forward proxy ({@link io.riptide.proxy.ProxyServer})
 * that answers cacheable requests through a {@link io.riptide.proxy.CacheLookup} and everything else from the
 * origin; {@link io.riptide.proxy.RiptideProxy} puts it together with the cache (protocol code in
 * {@code proxy.cache}), which {@link io.riptide.proxy.OverlayCacheLookup} runs on an overlay client's loop.
 *
 * <p>Decisions worth knowing: each browser connection's requests are handled one at a time, so pipelined
 * responses go out in order without buffering any body (browsers open several connections instead);
 * an exchange and its origin connection share one event loop (pools are per loop), so streaming and
 * backpressure need no locks or hand-offs; {@code https://} in absolute form is refused with 400 (browsers
 * use CONNECT, which is tunnelled untouched unless the user chose to intercept that host: {@code proxy.tls});
 * CONNECT reaches ports 443 and 8443 unless configured otherwise;
 * {@code Expect: 100-continue} is not forwarded (the origin is never asked for 100 Continue).
 */
package io.riptide.proxy;
