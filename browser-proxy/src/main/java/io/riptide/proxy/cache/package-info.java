/**
 * The browser proxy's cache as protocol code: {@link io.riptide.proxy.cache.ProxyCache} and the parts a
 * lookup passes through (provider fan-out, verification on the verify stage, the RFC 9111 decision), the
 * lookup's result and its {@code Cache-Status}; the providers' keys it trusts follow rotation certificates
 * and revocations it reads ({@code ProviderTrust}, {@code ProxyCache.watchKeyRecords}). Nothing here reads a clock or touches Netty: it sees the
 * runtime seam ({@code Env}) and the overlay through {@code OverlayAccess}, so the real proxy and the
 * simulator's proxies run the same classes.
 */
package io.riptide.proxy.cache;
