package io.riptide.dolr.discovery;

import io.riptide.core.crypto.PublicKey;
import io.riptide.core.id.Id;
import io.riptide.core.runtime.NodeAddress;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What a node tells the local network about itself, as the TXT record of its DNS-SD service:
 * {@code txtvers=1}, {@code role}, {@code id} (its node ID in hex), {@code host} and {@code port}
 * (where peers reach it in the overlay) and, for gateways and cache managers, {@code provider} (the
 * public key of the provider it works for, as {@code ed25519:BASE64}).
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
     * {@code sourceHost} (the address the service resolved to) stands in for a missing {@code host}.
     */
    public static Optional<Announcement> fromTxt(Map<String, String> txt, String sourceHost) {
        if (!TXT_VERSION.equals(txt.get("txtvers"))) {
            return Optional.empty();
        }
        Optional<Role> role = Role.parse(String.valueOf(txt.get("role")).toLowerCase(Locale.ROOT));
        String id = txt.get("id");
        String host = txt.getOrDefault("host", sourceHost);
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

    @Override
    public String toString() {
        return role.text + " " + nodeId.shortHex() + " at " + overlay + (provider == null ? "" : " for provider " + provider);
    }
}
