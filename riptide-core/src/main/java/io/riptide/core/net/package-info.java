/**
 * Netty plumbing shared by every role that talks to the outside world over TCP: the transport choice
 * (epoll or NIO), DNS resolution off the event loop, client TLS with verification, idle closing, and
 * the destination rule (public addresses only, hosts read as browsers read them) that the gateway's
 * origin fetcher and the browser proxy both apply. No protocol logic lives here.
 */
package io.riptide.core.net;
