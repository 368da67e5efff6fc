/**
 * Zero-configuration discovery on the local network: overlay nodes, gateways and cache managers
 * announce themselves as the DNS-SD service {@value io.riptide.dolr.discovery.Announcement#SERVICE_TYPE}
 * over multicast DNS, and a browser proxy browses for it to find the overlay without configured seeds.
 *
 * <p>mDNS is opt-in and bound to one interface: {@link MdnsInterface} is always an interface the
 * operator named, or the interface holding the address a node already listens on, or the one and only
 * LAN interface of the machine; never "every interface" and never loopback unless named. Nothing here
 * sends a packet until {@link Announcer#start} or {@link Browser#start} is called with such an interface.
 *
 * <p>An announcement is unauthenticated: anyone on the link can send one. It is only ever used to find
 * nodes to talk to (each of which then proves its key in the overlay handshake); whether a provider
 * key it carries may be trusted is the browser proxy's decision, off by default.
 */
package io.riptide.dolr.discovery;
