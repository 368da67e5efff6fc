package io.riptide.proxy.status;

/** The proxy auto-config file browsers load from {@code /proxy.pac}: everything through the proxy but local hosts. */
public final class PacFile {
    /** The media type browsers expect for a PAC file. */
    public static final String CONTENT_TYPE = "application/x-ns-proxy-autoconfig";

    private PacFile() {
    }

    /** The PAC script for a proxy reached at {@code host:port}. */
    public static String render(String host, int port) {
        return """
                function FindProxyForURL(url, host) {
                  // Loopback and plain names are this machine or the LAN: proxying them would only add a hop.
                  if (isPlainHostName(host) || host === "localhost" || shExpMatch(host, "127.*")
                      || host === "::1" || host === "[::1]") {
                    return "DIRECT";
                  }
                  return "PROXY %s:%d; DIRECT";
                }
                """.formatted(host, port);
    }
}
