package io.riptide.dolr.discovery;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What a node tells the local network about itself, as the TXT record of its DNS-SD service:
 * {@code txtvers=1}, {@code role}, {@code id} (its node ID in hex), {@code host} and {@code port}
 * (where peers reach it in the overlay) and, for gateways and cache managers, {@code provider} (the
 * public key of the provider it works for, as {@code ed25519:BASE64}). A reader takes {@code host}
 * only when it is the address the record came from (see {@link #read}).
 *
 * @param role     what the node is
 * @param nodeId   its overlay node ID
 * @param overlay  where it listens for overlay connections
 * @param provider the provider it works for; null for a plain node
 */
public record Announcement(Role role, Id nodeId, NodeAddress overlay, PublicKey provider) {
    /** The DNS-SD service type every Riptide node announces. */
    public static final String SERVICE_TYPE = "_riptide._tcp.local.";
    /** The TXT record format this class writes and reads. */
    static final String TXT_VERSION = "1";

    /** What an announcing node is. */
    public enum Role {
        NODE("node"), GATEWAY("gateway"), CACHE_MANAGER("cache-manager");

        private final String text;

        Role(String text) {
            this.text = text;
        }

        /** How the role is written in the TXT record and on the command line. */
        public String text() {
            return text;
        }

        static Optional<Role> parse(String text) {
            for (Role r : values()) {
                if (r.text.equals(text)) {
                    return Optional.of(r);
                }
            }
            return Optional.empty();
        }
    }

    public Announcement {
        if (role == null || nodeId == null || overlay == null) {
            throw new IllegalArgumentException("an announcement needs a role, a node ID and an address");
        }
        if (overlay.port() < 1 || overlay.port() > 0xffff) {
            throw new IllegalArgumentException("an announced port must be between 1 and 65535, got " + overlay.port());
        }
    }

    /** The DNS-SD instance name: readable in a service browser, and distinct per node. */
    public String instanceName() {
        return "riptide " + role.text + " " + nodeId.toHex().substring(0, 12);
    }

    /** The TXT record, in the order written. */
    public Map<String, String> toTxt() {
        Map<String, String> txt = new LinkedHashMap<>();
        txt.put("txtvers", TXT_VERSION);
        txt.put("role", role.text);
        txt.put("id", nodeId.toHex());
        txt.put("host", overlay.host());
        txt.put("port", Integer.toString(overlay.port()));
        if (provider != null) {
            txt.put("provider", provider.toString());
        }
        return txt;
    }

    /**
     * Reads a TXT record; empty if it is not a complete, well-formed Riptide announcement (another
     * version, a missing or malformed field): a stranger's record is ignored, never half-used.
     * {@code sourceHost} is the address the record came from; the announced {@code host} is taken
     * only if it is that very address, and otherwise (missing, a name, another address) the source
     * stands in for it: anyone can announce, but only the address they announce from.
     */
    public static Optional<Announcement> fromTxt(Map<String, String> txt, String sourceHost) {
        return read(txt, sourceHost == null ? List.of() : List.of(sourceHost));
    }

    /**
     * As above, with every address the record may have come from ({@code sources}, as IP literals;
     * the first stands in for an announced host that is none of them). Empty without a source.
     */
    public static Optional<Announcement> read(Map<String, String> txt, List<String> sources) {
        if (!TXT_VERSION.equals(txt.get("txtvers"))) {
            return Optional.empty();
        }
        Optional<Role> role = Role.parse(String.valueOf(txt.get("role")).toLowerCase(Locale.ROOT));
        String id = txt.get("id");
        String host = hostFrom(txt.get("host"), sources);
        String port = txt.get("port");
        if (role.isEmpty() || id == null || !id.matches("[0-9a-f]{40}") || host == null || host.isBlank() || port == null
                || !port.matches("[0-9]{1,5}")) {
            return Optional.empty();
        }
        PublicKey provider = null;
        if (txt.containsKey("provider")) {
            try {
                provider = PublicKey.parse(txt.get("provider"));
            } catch (IllegalArgumentException e) {
                return Optional.empty();
            }
        }
        try {
            return Optional.of(new Announcement(role.get(), Id.fromHex(id), new NodeAddress(host, Integer.parseInt(port)), provider));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Whether {@code announced} names the same IP address as {@code source}; names are never looked up. */
    static boolean sameAddress(String announced, String source) {
        if (announced == null || source == null) {
            return false;
        }
        if (announced.equals(source)) {
            return true;
        }
        Optional<InetAddress> a = literal(announced);
        Optional<InetAddress> b = literal(source);
        return a.isPresent() && a.equals(b);
    }

    private static String hostFrom(String announced, List<String> sources) {
        for (String source : sources) {
            if (sameAddress(announced, source)) {
                return announced;
            }
        }
        return sources.isEmpty() ? null : sources.get(0);
    }

    private static Optional<InetAddress> literal(String s) {
        String bare = s.startsWith("[") && s.endsWith("]") ? s.substring(1, s.length() - 1) : s;
        try {
            if (bare.matches("(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])){3}")) {
                String[] parts = bare.split("\\.");
                byte[] bytes = new byte[4];
                for (int i = 0; i < 4; i++) {
                    bytes[i] = (byte) Integer.parseInt(parts[i]);
                }
                return Optional.of(InetAddress.getByAddress(bytes));
            }
            if (bare.matches("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*(%.*)?")) {
                int scope = bare.indexOf('%');
                // In brackets Java parses it as IPv6 or fails; it never looks it up. The scope is not compared.
                return Optional.of(InetAddress.getByName("[" + (scope < 0 ? bare : bare.substring(0, scope)) + "]"));
            }
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
        return Optional.empty(); // a name: never resolved here
    }

    @Override
    public String toString() {
        return role.text + " " + nodeId.shortHex() + " at " + overlay + (provider == null ? "" : " for provider " + provider);
    }
}
