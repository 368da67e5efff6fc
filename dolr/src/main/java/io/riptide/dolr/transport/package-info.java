/**
 * The overlay's TCP transport: one authenticated connection per peer ({@link io.riptide.dolr.transport.TcpTransport}),
 * a pipeline of one-concern handlers, and bounded queues per peer; a lost peer is reported to the owner.
 */
package io.riptide.dolr.transport;
