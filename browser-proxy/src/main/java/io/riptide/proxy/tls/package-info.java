/**
 * Opt-in HTTPS interception ({@code riptide proxy --intercept HOSTS}): the user's own certificate
 * authority ({@link io.riptide.proxy.tls.LocalCa}, made by {@code riptide ca init}), the server
 * certificates it signs per host ({@link io.riptide.proxy.tls.LeafCertificates}) and which CONNECT
 * targets are intercepted ({@link io.riptide.proxy.tls.InterceptPolicy}).
 *
 * <p>For an intercepted CONNECT the proxy first connects to the origin itself and verifies its
 * certificate (chain and host name, against the system trust store), and only then answers 200 and
 * terminates the browser's TLS with a minted leaf; requests inside then run the same path as plain
 * {@code http://} ones, looked up under their {@code https://} URL. An origin whose certificate does
 * not verify gets every request on that connection a 502 page saying why, and nothing of it is served
 * from or stored to the cache. Hosts not listed are tunnelled untouched.
 */
package io.riptide.proxy.tls;
