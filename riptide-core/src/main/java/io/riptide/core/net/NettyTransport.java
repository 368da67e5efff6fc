package io.riptide.core.net;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollEventLoopGroup;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.DatagramChannel;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.unix.Errors;
import java.net.BindException;
import java.util.Locale;
import java.util.concurrent.ThreadFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Which of Netty's socket transports this process uses: native epoll on Linux when its library loads,
 * NIO otherwise. Chosen once per process ({@link #current()}); {@code -Driptide.transport=nio} forces
 * NIO (to compare the two, or to rule epoll out). Every event loop group for real sockets comes from
 * {@link #newGroup}, and every bootstrap takes its channel class from the group it runs on
 * ({@link #socketChannelFor}, {@link #serverSocketChannelFor}), since a channel registers only with
 * loops of its own transport: epoll loops with NIO channels fail at registration.
 *
 * <p>One difference callers meet: a failed epoll bind is a native {@code IOException} ("bind(..)
 * failed: Address already in use"), not a {@link BindException}; {@link #bindFailure} gives one for both.
 */
public enum NettyTransport {
    EPOLL("epoll"),
    NIO("nio");

    /** The system property that picks the transport: {@code nio}, or {@code epoll} / {@code auto} (the default). */
    public static final String PROPERTY = "riptide.transport";

    private static final Logger LOG = LoggerFactory.getLogger(NettyTransport.class);
    private static final String BIND_FAILED = "bind(..) failed: ";

    private final String label;

    NettyTransport(String label) {
        this.label = label;
    }

    /** A choice, with why it is NIO when it is (null for epoll): what {@link #describe()} says. */
    record Choice(NettyTransport transport, String reason) {
        String text() {
            return reason == null ? transport.label : transport.label + " (" + reason + ")";
        }
    }

    /** Made on first use, so a process that opens no socket never loads the native library. */
    private static final class Chosen {
        static final Choice CHOICE = chooseAndLog();
    }

    /** The transport this process uses; chosen (and logged, at debug) on the first call. */
    public static NettyTransport current() {
        return Chosen.CHOICE.transport();
    }

    /**
     * What is in use, for status pages and log lines: {@code epoll}, or {@code nio} with the reason
     * epoll was not chosen, such as {@code nio (-Driptide.transport=nio)} or {@code nio (epoll unavailable: ...)}.
     */
    public static String describe() {
        return Chosen.CHOICE.text();
    }

    private static Choice chooseAndLog() {
        String requested = System.getProperty(PROPERTY);
        String r = normalise(requested);
        // Forced NIO does not even try to load the native library.
        boolean available = !r.equals(NIO.label) && Epoll.isAvailable();
        Choice c = choose(requested, available, available || r.equals(NIO.label) ? null : Epoll.unavailabilityCause());
        if (!r.isEmpty() && !r.equals(NIO.label) && !r.equals(EPOLL.label) && !r.equals("auto")) {
            LOG.warn("-D{}={} is not nio, epoll or auto: ignored", PROPERTY, requested);
        }
        String line = "transport: " + c.text();
        if (c.transport() == NIO && r.equals(EPOLL.label)) {
            LOG.warn(line);
        } else {
            LOG.debug(line);
        }
        return c;
    }

    /**
     * The choice for the property's value {@code requested} (null when unset) when epoll is or is not
     * {@code epollAvailable} (with {@code cause}, or null): NIO when asked for, else epoll if available.
     * An unknown value counts as unset.
     */
    static Choice choose(String requested, boolean epollAvailable, Throwable cause) {
        if (normalise(requested).equals(NIO.label)) {
            return new Choice(NIO, "-D" + PROPERTY + "=nio");
        }
        if (epollAvailable) {
            return new Choice(EPOLL, null);
        }
        return new Choice(NIO, "epoll unavailable" + (cause == null ? "" : ": " + cause));
    }

    private static String normalise(String requested) {
        return requested == null ? "" : requested.strip().toLowerCase(Locale.ROOT);
    }

    /** {@code epoll} or {@code nio}. */
    public String label() {
        return label;
    }

    @Override
    public String toString() {
        return label;
    }

    /** A group of {@code threads} loops (0: Netty's default, twice the processors) named as Netty names them. */
    public EventLoopGroup newGroup(int threads) {
        return this == EPOLL ? new EpollEventLoopGroup(threads) : new NioEventLoopGroup(threads);
    }

    /** A group of {@code threads} loops (0: Netty's default) on threads from {@code threadFactory} (named by it). */
    public EventLoopGroup newGroup(int threads, ThreadFactory threadFactory) {
        return this == EPOLL ? new EpollEventLoopGroup(threads, threadFactory) : new NioEventLoopGroup(threads, threadFactory);
    }

    /** The client socket channel class of this transport. */
    public Class<? extends SocketChannel> socketChannel() {
        return this == EPOLL ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    /** The datagram channel class of this transport (DNS queries). */
    public Class<? extends DatagramChannel> datagramChannel() {
        return this == EPOLL ? EpollDatagramChannel.class : NioDatagramChannel.class;
    }

    /** The server socket channel class of this transport. */
    public Class<? extends ServerSocketChannel> serverSocketChannel() {
        return this == EPOLL ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    /**
     * The transport of {@code group}, which may be a group or one of its loops (such as a channel's
     * {@code eventLoop()}): epoll for Netty's epoll loops, NIO for anything else (NIO's loops, and
     * loops of other kinds, with which NIO channels fail to register as they always did).
     */
    public static NettyTransport of(EventLoopGroup group) {
        EventLoopGroup g = group;
        if (g instanceof EventLoop loop && loop.parent() != null) {
            g = loop.parent();
        }
        if (g instanceof EpollEventLoopGroup) {
            return EPOLL;
        }
        // An epoll loop with no parent group: its class (io.netty.channel.epoll.EpollEventLoop) is not public.
        return group.getClass().getName().startsWith("io.netty.channel.epoll.") ? EPOLL : NIO;
    }

    /** The client socket channel class that registers with {@code group}'s loops (a group or one loop). */
    public static Class<? extends SocketChannel> socketChannelFor(EventLoopGroup group) {
        return of(group).socketChannel();
    }

    /** The server socket channel class that registers with {@code group}'s loops. */
    public static Class<? extends ServerSocketChannel> serverSocketChannelFor(EventLoopGroup group) {
        return of(group).serverSocketChannel();
    }

    /**
     * The bind failure among {@code t} and its causes as a {@link BindException}, whichever transport
     * failed: NIO's own, or epoll's native "bind(..) failed: Address already in use" as a
     * BindException with NIO's message ("Address already in use") and the native one as its cause.
     * Null when none of them is a bind failure.
     */
    public static BindException bindFailure(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof BindException b) {
                return b;
            }
            if (c instanceof Errors.NativeIoException n && n.getMessage() != null && n.getMessage().startsWith(BIND_FAILED)) {
                BindException b = new BindException(n.getMessage().substring(BIND_FAILED.length()));
                b.initCause(n);
                return b;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return null;
    }
}
