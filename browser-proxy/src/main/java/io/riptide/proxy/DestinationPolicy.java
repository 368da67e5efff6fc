package io.riptide.proxy;

import io.riptide.core.net.ForbiddenAddressException;
import io.riptide.core.net.PublicAddresses;
import java.net.InetAddress;
import java.util.List;
import java.util.Locale;

/**
 * Which addresses the proxy connects to for its clients, origins and CONNECT targets alike. A proxy
 * that serves other machines is a way into its own host and network: without a rule, any client it
 * serves could reach the host's loopback admin ports (an overlay node's {@code /metrics}), the cloud
 * metadata service at 169.254.169.254 or the private network behind it. So when the proxy serves
 * clients beyond loopback, it reaches public addresses only ({@link PublicAddresses}), plus the
 * networks the operator allows. The address judged is the one the connection goes to, resolved at
 * each connect (so DNS rebinding gains nothing), after the host was read as browsers read it
 * ({@link io.riptide.core.net.UrlHost}: {@code 0177.0.0.1} is 127.0.0.1).
 *
 * @param mode whether the rule applies
 * @param allowed networks reachable even though they are not public (an intranet's origins)
 */
public record DestinationPolicy(Mode mode, List<Cidr> allowed) {
    /** When the rule applies. */
    public enum Mode {
        /** Public destinations only when the proxy serves clients beyond loopback; any destination otherwise. */
        AUTO,
        /** Public destinations only (plus {@link #allowed}), whoever the clients are. */
        PUBLIC,
        /** Any destination: the operator takes the risk (a proxy on a trusted machine of one user). */
        ANY;

        /** Reads {@code auto}, {@code public} or {@code any}, refused with the choices. */
        public static Mode parse(String text) {
            try {
                return valueOf(text.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("expected auto, public or any as the destination rule, got '" + text + "'");
            }
        }
    }

    /** The default: public destinations only once the proxy serves other machines. */
    public static final DestinationPolicy AUTO = new DestinationPolicy(Mode.AUTO, List.of());

    public DestinationPolicy {
        if (mode == null) {
            throw new IllegalArgumentException("a destination policy needs a mode");
        }
        allowed = List.copyOf(allowed);
    }

    /** Whether the rule applies to a proxy serving {@code clients}. */
    public boolean enforced(List<Cidr> clients) {
        return switch (mode) {
            case PUBLIC -> true;
            case ANY -> false;
            case AUTO -> !clients.stream().allMatch(DestinationPolicy::loopbackOnly);
        };
    }

    /** Null if {@code address} may be reached, else what kind of address it is ("a loopback address"). */
    public String refusal(InetAddress address) {
        if (Cidr.anyContains(allowed, address)) {
            return null;
        }
        return PublicAddresses.forbidden(address);
    }

    /**
     * What a client is told when this policy refused where its request would go: the host, the address
     * it resolved to and its kind, and what an operator can change.
     */
    public static String refusalMessage(ForbiddenAddressException refused) {
        return "this proxy does not connect to " + refused.getMessage() + " (it serves other machines, so it reaches "
                + "public addresses only; its operator can allow a network with --allow-destination)";
    }

    private static boolean loopbackOnly(Cidr network) {
        return Cidr.LOOPBACK.stream().anyMatch(network::within);
    }
}
