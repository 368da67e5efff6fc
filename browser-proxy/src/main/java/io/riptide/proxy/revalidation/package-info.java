/**
 * Revalidating a stored copy with the origin (RFC 9111 §4.3): {@link io.riptide.proxy.revalidation.Revalidation}
 * holds the state, whichever front drives the exchange.
 */
package io.riptide.proxy.revalidation;
