package io.riptide.proxy;

import io.riptide.core.runtime.NodeAddress;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The seed nodes built into the proxy ({@value #RESOURCE}): the last resort for finding the overlay,
 * after nodes announced on the local network and {@code --seed}. One {@code HOST:PORT} a line; blank
 * lines and {@code #} comments are ignored, so the list may be empty (it is in this build).
 */
public final class BuiltInSeeds {
    static final String RESOURCE = "/io/riptide/proxy/seeds.txt";

    private BuiltInSeeds() {
    }

    /** The built-in seeds, in the file's order. */
    public static List<NodeAddress> load() {
        try (InputStream in = BuiltInSeeds.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                return List.of();
            }
            return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the built-in seed list " + RESOURCE, e);
        }
    }

    /** Parses the list's text; a malformed line is an error naming it, since the list ships with the proxy. */
    static List<NodeAddress> parse(String text) {
        List<NodeAddress> seeds = new ArrayList<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int hash = line.indexOf('#');
            String entry = (hash >= 0 ? line.substring(0, hash) : line).strip();
            if (entry.isEmpty()) {
                continue;
            }
            try {
                NodeAddress seed = NodeAddress.parse(entry);
                if (seed.port() == 0) {
                    throw new IllegalArgumentException("port 0 is not a node's port");
                }
                seeds.add(seed);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("built-in seed list, line " + (i + 1) + ": " + e.getMessage());
            }
        }
        return List.copyOf(seeds);
    }
}
