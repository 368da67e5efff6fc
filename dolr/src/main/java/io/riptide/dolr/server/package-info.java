/**
 * An overlay node as a process: the node on a Netty event loop with its TCP transport, its disk or
 * memory store and its admin page, started and stopped as a unit ({@code OverlayServer}), and what it
 * reports about itself (status page, membership log).
 */
package io.riptide.dolr.server;
