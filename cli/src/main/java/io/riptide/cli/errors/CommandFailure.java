package io.riptide.cli.errors;

import java.net.BindException;

/**
 * A runtime failure whose message already says what is wrong and what to do; the command exits
 * with 1 and prints only the message (no stack trace unless {@code --debug}).
 */
public final class CommandFailure extends RuntimeException {
    public CommandFailure(String message) {
        super(message);
    }

    public CommandFailure(String message, Throwable cause) {
        super(message, cause);
    }

    /** The failure to report when listening on {@code host:port} failed with {@code e}; {@code e} itself if it is none of the known kinds. */
    public static RuntimeException listening(RuntimeException e, String host, int port, String portOption, String hostOption) {
        if (inUse(e)) {
            return new CommandFailure(portInUse(port, portOption), e);
        }
        if (mentions(e, "Cannot assign requested address")) {
            return new CommandFailure("cannot listen on " + host + ": it is not an address of this machine; choose one with "
                    + hostOption + " (127.0.0.1, or an address that 'ip addr' lists)", e);
        }
        if (mentions(e, "Permission denied")) {
            return new CommandFailure("not allowed to listen on port " + port + " (ports below 1024 need privileges): choose "
                    + "another with " + portOption, e);
        }
        return e;
    }

    /** The message for a port another process holds. */
    public static String portInUse(int port, String portOption) {
        return "port " + port + " is in use: choose another with " + portOption + " or stop the process using it";
    }

    /** Whether {@code e} or a cause is a bind failure because the address is taken. */
    public static boolean inUse(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException && t.getMessage() != null && t.getMessage().contains("in use")) {
                return true;
            }
        }
        return mentions(e, "Address already in use");
    }

    private static boolean mentions(Throwable e, String text) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains(text)) {
                return true;
            }
        }
        return false;
    }
}
