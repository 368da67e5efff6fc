package io.riptide.core.testing;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class after which Netty reported a leak, printing the leak records. Auto-registered
 * (see {@code junit-platform.properties} and {@code META-INF/services}) for every test class.
 *
 * <p>A leak is charged to the class after which it was found, which is usually, not always, the
 * class that caused it; the records name the allocation site either way.
 */
public final class NettyLeakCheck implements AfterAllCallback {
    @Override
    public void afterAll(ExtensionContext context) {
        if (!NettyLeakGuard.isActive()) {
            throw new AssertionError("the Netty leak guard is not active, so leaks would go unnoticed: "
                    + "Netty buffers were initialised before the JUnit launcher session opened, or "
                    + "NettyLeakGuardSession is missing from META-INF/services");
        }
        NettyLeakGuard.provoke();
        // Drained, so one leak fails one class rather than every class after it.
        List<Leak> leaks = NettyLeakGuard.drain();
        if (!leaks.isEmpty()) {
            String report = leaks.stream().map(Leak::toString).collect(Collectors.joining("\n\n"));
            System.err.println(report);
            throw new AssertionError(leaks.size() + " Netty resource leak(s) reported during or before "
                    + context.getDisplayName() + ":\n" + report);
        }
    }
}
