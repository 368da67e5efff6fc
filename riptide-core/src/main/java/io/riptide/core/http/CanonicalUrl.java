package io.riptide.core.http;

import java.io.ByteArrayOutputStream;
import java.net.IDN;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Locale;

/**
 * The canonical form of an absolute http or https URL, so that every alias of one URL hashes to one
 * GUID (RFC 3986 §6.2.2 and §6.2.3, RFC 9110 §4.2.3). Scheme and host are lower-cased (the host
 * converted to ASCII with IDNA), a default port is dropped, an empty path becomes "/", dot
 * segments are removed, percent-encoding is normalised and the fragment is dropped.
 *
 * <p>Userinfo ({@code user:password@}) is stripped, never kept: credentials must not enter a shared
 * cache key, and Riptide fetches every object without the user's credentials anyway.
 *
 * @param value the canonical URL
 */
public record CanonicalUrl(String value) {
    /** The longest URL accepted, before and after normalisation. */
    public static final int MAX_LENGTH = 8 * 1024;

    private static final String HEX = "0123456789ABCDEF";
    private static final String SUB_DELIMS = "!$&'()*+,;=";

    /** The canonical form of {@code url}; throws IllegalArgumentException saying why when it cannot be cached. */
    public static CanonicalUrl of(String url) {
        if (url == null) {
            throw new IllegalArgumentException("URL is missing");
        }
        if (url.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("URL is longer than " + MAX_LENGTH + " characters");
        }
        String s = url.strip();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x20 || c == 0x7f) {
                throw new IllegalArgumentException("URL contains a control character at index " + i);
            }
        }
        int colon = s.indexOf(':');
        String scheme = colon < 0 ? "" : s.substring(0, colon).toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            throw new IllegalArgumentException("only http and https URLs can be cached, not \""
                    + (colon < 0 ? s : s.substring(0, colon)) + "\"");
        }
        if (!s.startsWith("//", colon + 1)) {
            throw new IllegalArgumentException("URL has no host (expected " + scheme + "://host/...)");
        }
        String rest = s.substring(colon + 3);
        int hash = rest.indexOf('#');
        if (hash >= 0) {
            rest = rest.substring(0, hash); // the fragment never reaches the server (RFC 9110 §4.2.5)
        }
        int authorityEnd = indexOfAny(rest, "/?");
        String authority = authorityEnd < 0 ? rest : rest.substring(0, authorityEnd);
        String pathAndQuery = authorityEnd < 0 ? "" : rest.substring(authorityEnd);
        int q = pathAndQuery.indexOf('?');
        String path = q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
        String query = q < 0 ? null : pathAndQuery.substring(q + 1);

        int at = authority.lastIndexOf('@');
        String hostPort = at < 0 ? authority : authority.substring(at + 1);
        int portColon = hostPort.lastIndexOf(':');
        if (portColon >= 0 && hostPort.indexOf(']', portColon) >= 0) {
            portColon = -1; // the colon is inside an IPv6 literal
        }
        String host = host(portColon < 0 ? hostPort : hostPort.substring(0, portColon));
        int port = port(portColon < 0 ? "" : hostPort.substring(portColon + 1));
        boolean defaultPort = port < 0 || (scheme.equals("http") && port == 80) || (scheme.equals("https") && port == 443);

        StringBuilder out = new StringBuilder(s.length());
        out.append(scheme).append("://").append(host);
        if (!defaultPort) {
            out.append(':').append(port);
        }
        String p = removeDotSegments(encode(path, "/:@"));
        out.append(p.isEmpty() ? "/" : p);
        if (query != null) {
            out.append('?').append(encode(query, "/:@?"));
        }
        if (out.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("URL is longer than " + MAX_LENGTH + " characters once normalised");
        }
        return new CanonicalUrl(out.toString());
    }

    @Override
    public String toString() {
        return value;
    }

    private static String host(String raw) {
        if (raw.isEmpty()) {
            throw new IllegalArgumentException("URL has no host");
        }
        if (raw.startsWith("[")) {
            String lower = raw.toLowerCase(Locale.ROOT);
            if (!lower.endsWith("]") || lower.length() < 4 || !lower.substring(1, lower.length() - 1).matches("[0-9a-f:.]+")) {
                throw new IllegalArgumentException("URL has an invalid IP literal host: " + raw);
            }
            return lower;
        }
        String decoded = percentDecodeUtf8(raw);
        String ascii;
        try {
            ascii = IDN.toASCII(decoded, IDN.ALLOW_UNASSIGNED).toLowerCase(Locale.ROOT);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("URL has an invalid host name: " + raw, e);
        }
        if (ascii.isEmpty() || !ascii.matches("[a-z0-9._-]+")) {
            throw new IllegalArgumentException("URL has an invalid host name: " + raw);
        }
        return ascii;
    }

    /** The port number, or -1 when absent or empty (an empty port means the default, RFC 3986 §6.2.3). */
    private static int port(String raw) {
        if (raw.isEmpty()) {
            return -1;
        }
        if (!raw.matches("[0-9]{1,5}") || Integer.parseInt(raw) > 65535) {
            throw new IllegalArgumentException("URL has an invalid port: " + raw);
        }
        return Integer.parseInt(raw);
    }

    /**
     * Percent-encoding normalisation (RFC 3986 §6.2.2.2): escapes of unreserved characters are
     * decoded, other escapes get upper-case hex, a stray '%' becomes %25, and characters not allowed
     * literally (beyond unreserved, sub-delims and {@code extra}) are UTF-8 encoded.
     */
    private static String encode(String component, String extra) {
        StringBuilder out = new StringBuilder(component.length());
        int i = 0;
        while (i < component.length()) {
            char c = component.charAt(i);
            if (c == '%' && i + 2 < component.length() && isHex(component.charAt(i + 1)) && isHex(component.charAt(i + 2))) {
                int b = Integer.parseInt(component.substring(i + 1, i + 3), 16);
                if (isUnreserved((char) b)) {
                    out.append((char) b);
                } else {
                    appendEscape(out, b);
                }
                i += 3;
            } else if (c < 0x80 && (isUnreserved(c) || SUB_DELIMS.indexOf(c) >= 0 || extra.indexOf(c) >= 0)) {
                out.append(c);
                i++;
            } else {
                int cp = component.codePointAt(i);
                if (Character.isSurrogate((char) cp)) {
                    throw new IllegalArgumentException("URL contains an unpaired surrogate at index " + i);
                }
                for (byte b : new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8)) {
                    appendEscape(out, b & 0xff);
                }
                i += Character.charCount(cp);
            }
        }
        return out.toString();
    }

    /** RFC 3986 §5.2.4, on an already encoded path. */
    static String removeDotSegments(String path) {
        Deque<String> out = new ArrayDeque<>();
        String[] segments = path.split("/", -1);
        // segments[0] is "" for an absolute path.
        for (int i = 1; i < segments.length; i++) {
            String seg = segments[i];
            boolean last = i == segments.length - 1;
            if (seg.equals(".")) {
                if (last) {
                    out.addLast("");
                }
            } else if (seg.equals("..")) {
                out.pollLast();
                if (last) {
                    out.addLast("");
                }
            } else {
                out.addLast(seg);
            }
        }
        if (segments.length <= 1) {
            return path;
        }
        return "/" + String.join("/", out);
    }

    private static String percentDecodeUtf8(String s) {
        if (s.indexOf('%') < 0) {
            return s;
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '%' && i + 2 < s.length() && isHex(s.charAt(i + 1)) && isHex(s.charAt(i + 2))) {
                bytes.write(Integer.parseInt(s.substring(i + 1, i + 3), 16));
                i += 2;
            } else if (c == '%') {
                throw new IllegalArgumentException("URL host has a malformed percent-escape: " + s);
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(b, 0, b.length);
            }
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes.toByteArray())).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("URL host is not valid UTF-8 once percent-decoded: " + s, e);
        }
    }

    private static void appendEscape(StringBuilder out, int b) {
        out.append('%').append(HEX.charAt(b >> 4)).append(HEX.charAt(b & 0xf));
    }

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static boolean isUnreserved(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                || c == '-' || c == '.' || c == '_' || c == '~';
    }

    private static int indexOfAny(String s, String chars) {
        for (int i = 0; i < s.length(); i++) {
            if (chars.indexOf(s.charAt(i)) >= 0) {
                return i;
            }
        }
        return -1;
    }
}
