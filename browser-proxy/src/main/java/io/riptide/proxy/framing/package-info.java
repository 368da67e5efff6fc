/**
 * HTTP/1.1 message framing as the proxy reads it on both sides: the framing fields as they arrived
 * (before Netty's decoder merged or dropped any), the one verdict on how a message is delimited, and
 * the codecs that record them. A message whose framing is ambiguous is refused, never forwarded; one
 * that passes goes on with the framing the proxy chose, spelled its own way.
 */
package io.riptide.proxy.framing;
