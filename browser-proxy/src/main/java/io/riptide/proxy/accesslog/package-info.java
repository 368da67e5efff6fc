/**
 * The proxy's access log: one line per request, in Squid's native format (so the tools that read
 * Squid's {@code access.log} read it) or as JSON lines, written off the event loops.
 */
package io.riptide.proxy.accesslog;
