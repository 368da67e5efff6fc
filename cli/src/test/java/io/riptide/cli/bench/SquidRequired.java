package io.riptide.cli.bench;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * Squid for tests: present, or the test fails, so a CI without Squid cannot go green unseen; {@code RIPTIDE_NO_SQUID=1}
 * is the explicit opt-out where Squid cannot be installed. CI installs it ({@code .ci/run}).
 */
public final class SquidRequired {
    /** The environment variable that lets tests run without Squid. */
    public static final String OPT_OUT = "RIPTIDE_NO_SQUID";

    private SquidRequired() {
    }

    /** Whether Squid is installed; false only where {@link #OPT_OUT} is set, otherwise a missing Squid fails the test. */
    public static boolean installed() {
        return check(SquidProxy.binary(), System.getenv(OPT_OUT));
    }

    /** Squid, failing the test where it is missing, or skipping it where {@link #OPT_OUT} is set. */
    public static SquidProxy proxy() {
        Assumptions.assumeTrue(installed(), OPT_OUT + "=1: squid tests skipped");
        return SquidProxy.installed();
    }

    static boolean check(Optional<Path> binary, String optOut) {
        if (binary.isPresent()) {
            return true;
        }
        if ("1".equals(optOut)) {
            return false;
        }
        throw new AssertionError("squid is not installed (apt-get install squid; .ci/run does), so the proxy is not compared"
                + " with it: install it or set " + OPT_OUT + "=1 to run without the Squid checks");
    }
}
