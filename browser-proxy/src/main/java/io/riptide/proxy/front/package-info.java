/**
 * The proxy's browser-facing side: the server pipeline, one exchange per request answered strictly
 * in order, the cacheability decision, hop-by-hop handling and the proxy's own pages.
 */
package io.riptide.proxy.front;
