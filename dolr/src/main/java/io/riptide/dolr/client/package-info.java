/**
 * Clients of the overlay that are not members (browser proxies): {@link io.riptide.dolr.client.AccessNodes}
 * finds and keeps the nearest access nodes (marking one down at once when its connection is lost, and
 * pinging it again until it answers: {@code DownNodes}), {@code HedgedReads} sends each read through the
 * nearest live one and hedges a late one to the next within a budget, {@link io.riptide.dolr.client.AccessPoint}
 * serves clients on every node, {@link io.riptide.dolr.client.OverlayAccess} is what protocol code above the
 * overlay sees of either (or of a member's own node, {@link io.riptide.dolr.client.NodeAccess}), and
 * {@link io.riptide.dolr.client.OverlayClient} runs a client for real over TCP.
 */
package io.riptide.dolr.client;
