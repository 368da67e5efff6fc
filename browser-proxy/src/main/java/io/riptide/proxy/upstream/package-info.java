/**
 * The proxy's origin client: per-origin keep-alive pools on each event loop and a streaming exchange
 * that relays an origin's response chunk by chunk, never aggregating a body.
 */
package io.riptide.proxy.upstream;
