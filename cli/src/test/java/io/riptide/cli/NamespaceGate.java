package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * What the tests that build network namespaces do when they cannot (no root, no ip or unshare):
 * skip with the reason on a developer's machine, fail under {@code CI=true}, where they must run.
 * And how they stop their processes: in reverse order of start, so users and proxies go before
 * the overlay and nobody logs a dead peer on the way out.
 */
final class NamespaceGate {
    private NamespaceGate() {
    }

    /** Skips (or, under CI, fails) the calling test {@code what} if {@code why} says namespaces are unavailable. */
    static void requireNamespaces(Optional<String> why, String what) {
        if (why.isEmpty()) {
            return;
        }
        if ("true".equals(System.getenv("CI"))) {
            fail("CI runs as root with util-linux and iproute2, so this test must run there: " + why.get());
        }
        Assumptions.abort("skipped: " + what + " " + why.get());
    }

    /** Closes {@code processes} newest first, each within its own bound. */
    static void closeNewestFirst(List<NodeProcess> processes) throws InterruptedException {
        for (int i = processes.size() - 1; i >= 0; i--) {
            processes.get(i).close();
        }
    }
}
