package io.riptide.dolr.discovery;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The one network interface mDNS runs on, and the address on it that mDNS binds to (IPv4 when the
 * interface has one). Chosen only in the three ways below; there is deliberately no "all interfaces"
 * and no guess among several: multicast on the wrong link is traffic nobody asked for.
 *
 * <ul>
 *   <li>{@link #named}: the interface the operator named, by name ({@code eth0}) or by one of its
 *       addresses; loopback is allowed here, and only here (a test network namespace uses it).</li>
 *   <li>{@link #holding}: the interface holding the address a node listens on, if that is not loopback.</li>
 *   <li>{@link #onlyLan}: the machine's only LAN interface; an error if it has none or several.</li>
 * </ul>
 *
 * @param name    the interface's name, as {@code ip link} shows it
 * @param address the address mDNS binds to and sends from
 */
public record MdnsInterface(String name, InetAddress address) {
    /** What {@link #choose} needs to know of an interface; a plain value, so the choice can be tested without a network. */
    public record Candidate(String name, boolean up, boolean loopback, boolean multicast, boolean pointToPoint,
                            List<InetAddress> addresses) {
        public Candidate {
            addresses = List.copyOf(addresses);
        }

        boolean lan() {
            return up && !loopback && multicast && !pointToPoint && addresses.stream().anyMatch(a -> a instanceof Inet4Address);
        }
    }

    /** The interface named {@code nameOrAddress}: an interface name, or one of its addresses (an IP literal). */
    public static MdnsInterface named(String nameOrAddress) {
        return named(nameOrAddress, candidates());
    }

    static MdnsInterface named(String nameOrAddress, List<Candidate> all) {
        String wanted = nameOrAddress.trim();
        for (Candidate c : all) {
            if (c.name().equals(wanted)) {
                return usable(c, "--mdns-interface " + wanted);
            }
        }
        if (looksLikeIpLiteral(wanted)) {
            InetAddress address = literal(wanted);
            for (Candidate c : all) {
                if (c.addresses().contains(address)) {
                    MdnsInterface chosen = usable(c, "--mdns-interface " + wanted);
                    return new MdnsInterface(chosen.name(), address);
                }
            }
            throw new IllegalArgumentException("no interface of this machine has the address " + wanted + "; " + known(all));
        }
        throw new IllegalArgumentException("no interface named '" + wanted + "'; " + known(all));
    }

    /** The interface holding {@code host}, the address a node listens on; an error if it is loopback or on no interface. */
    public static MdnsInterface holding(String host) {
        return holding(host, candidates());
    }

    static MdnsInterface holding(String host, List<Candidate> all) {
        InetAddress address;
        try {
            address = InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("cannot resolve " + host);
        }
        if (address.isLoopbackAddress() || address.isAnyLocalAddress()) {
            throw new IllegalArgumentException("the node listens on " + host + ", which nobody else on the network can reach: "
                    + "listen on a LAN address with --host, or name the interface to announce on with --mdns-interface");
        }
        for (Candidate c : all) {
            if (c.addresses().contains(address)) {
                MdnsInterface chosen = usable(c, "the interface of --host " + host);
                return new MdnsInterface(chosen.name(), address);
            }
        }
        throw new IllegalArgumentException("no interface of this machine has the address " + host + "; " + known(all));
    }

    /** The machine's only LAN interface (up, multicast, not loopback or point-to-point, with an IPv4 address). */
    public static MdnsInterface onlyLan() {
        return choose(candidates());
    }

    static MdnsInterface choose(List<Candidate> all) {
        List<Candidate> lan = all.stream().filter(Candidate::lan).toList();
        if (lan.size() == 1) {
            return usable(lan.get(0), "the LAN interface");
        }
        if (lan.isEmpty()) {
            throw new IllegalArgumentException("this machine has no LAN interface that supports multicast; "
                    + "name one with --mdns-interface (" + known(all) + ")");
        }
        throw new IllegalArgumentException("this machine has several LAN interfaces ("
                + lan.stream().map(Candidate::name).collect(Collectors.joining(", ")) + "): name one with --mdns-interface");
    }

    private static MdnsInterface usable(Candidate c, String what) {
        if (!c.up()) {
            throw new IllegalArgumentException(what + ": interface " + c.name() + " is down");
        }
        if (!c.multicast()) {
            throw new IllegalArgumentException(what + ": interface " + c.name() + " does not support multicast"
                    + (c.loopback() ? " (loopback usually has no MULTICAST flag)" : ""));
        }
        InetAddress address = c.addresses().stream().filter(a -> a instanceof Inet4Address).findFirst()
                .or(() -> c.addresses().stream().findFirst())
                .orElseThrow(() -> new IllegalArgumentException(what + ": interface " + c.name() + " has no address"));
        return new MdnsInterface(c.name(), address);
    }

    private static String known(List<Candidate> all) {
        return "interfaces: " + (all.isEmpty() ? "none" : all.stream().map(c -> c.name() + " " + c.addresses().stream()
                .map(InetAddress::getHostAddress).toList()).collect(Collectors.joining(", ")));
    }

    private static boolean looksLikeIpLiteral(String s) {
        return s.matches("[0-9.]+") || s.contains(":");
    }

    private static InetAddress literal(String s) {
        try {
            return InetAddress.getByName(s); // an IP literal: no name lookup
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an IP address: " + s);
        }
    }

    /** Every interface of this machine, as it is now. Reads the interface list; sends nothing. */
    static List<Candidate> candidates() {
        List<Candidate> all = new ArrayList<>();
        try {
            for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                all.add(new Candidate(ni.getName(), ni.isUp(), ni.isLoopback(), ni.supportsMulticast(), ni.isPointToPoint(),
                        Collections.list(ni.getInetAddresses())));
            }
        } catch (SocketException e) {
            throw new IllegalArgumentException("cannot list this machine's network interfaces: " + e.getMessage());
        }
        return all;
    }

    @Override
    public String toString() {
        return name + " (" + address.getHostAddress() + ")";
    }
}
