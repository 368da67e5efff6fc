package io.riptide.cli;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.runtime.NodeAddress;
import io.riptide.dolr.discovery.Announcement;
import io.riptide.dolr.discovery.Announcement.Role;
import io.riptide.dolr.discovery.Announcer;
import io.riptide.dolr.discovery.MdnsInterface;
import io.riptide.dolr.server.OverlayServer;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.UnknownHostException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --announce} and {@code --mdns-interface}, shared by the commands that run a node: announce
 * the node on the local network (DNS-SD over mDNS) once it has joined, so that browser proxies there
 * find the overlay without {@code --seed}. Off unless asked for, and then on one interface only: the
 * one named, or the one holding {@code --host}.
 */
final class AnnounceOptions {
    @Spec(Spec.Target.MIXEE)
    private CommandSpec spec;

    @Option(names = "--announce", negatable = true,
            description = "Announce this node on the local network (DNS-SD over mDNS), so that browser proxies there find "
                + "the overlay without --seed; on one interface only (default: on when --mdns-interface is given, otherwise off).")
    private Boolean announce;

    @Option(names = "--mdns-interface", paramLabel = "NAME|ADDRESS",
            description = "The one network interface to announce on, by name (eth0) or by one of its addresses "
                + "(default: none; --announce alone uses the interface of --host, which must not be loopback).")
    private String mdnsInterface;

    /** Where to announce a node listening on {@code listen}, or null not to; a usage error if it cannot be done. */
    MdnsInterface where(NodeAddress listen) {
        boolean on = announce != null ? announce : mdnsInterface != null;
        if (!on) {
            return null;
        }
        MdnsInterface where;
        try {
            where = mdnsInterface != null ? MdnsInterface.named(mdnsInterface) : MdnsInterface.holding(listen.host());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--announce: " + e.getMessage());
        }
        if (isLoopback(listen.host()) && !where.address().isLoopbackAddress()) {
            throw new ParameterException(spec.commandLine(), "--announce: the node listens on " + listen.host()
                    + ", which nobody on " + where + " can reach: listen on that interface's address with --host");
        }
        return where;
    }

    /**
     * Announces {@code server} on {@code where} (if not null) once it has joined, as {@code role},
     * working for {@code provider} (null for a plain node). Closing the result withdraws it.
     */
    static AutoCloseable whenJoined(MdnsInterface where, OverlayServer server, Role role, PublicKey provider, PrintWriter out) {
        if (where == null) {
            return () -> { };
        }
        Announcement what = new Announcement(role, server.self().id(), server.address(), provider);
        Pending pending = new Pending();
        // Off the node's event loop: creating the responder opens a socket and takes a while.
        server.joined().thenRunAsync(() -> pending.start(where, what, out));
        return pending::close;
    }

    private static final class Pending {
        private Announcer announcer;
        private boolean closed;

        synchronized void start(MdnsInterface where, Announcement what, PrintWriter out) {
            if (closed) {
                return;
            }
            try {
                announcer = Announcer.start(where, what);
                RunningNode.say(out, "announcing on the local network (" + where + ") as " + Announcement.SERVICE_TYPE + ": " + what);
            } catch (RuntimeException e) {
                RunningNode.say(out, "cannot announce on the local network: " + e.getMessage() + "; proxies need --seed to find this node");
            }
        }

        synchronized void close() {
            closed = true;
            if (announcer != null) {
                announcer.close();
            }
        }
    }

    private static boolean isLoopback(String host) {
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
