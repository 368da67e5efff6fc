package io.riptide.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** Reads the build's version from the filtered {@code version.properties} resource. */
public final class RiptideVersion implements IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
        Properties p = new Properties();
        try (InputStream in = RiptideVersion.class.getResourceAsStream("version.properties")) {
            if (in != null) {
                p.load(in);
            }
        }
        return new String[] {"riptide " + p.getProperty("version", "unknown"), "Java " + System.getProperty("java.version")};
    }
}
