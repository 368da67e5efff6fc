package io.riptide.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** The leak guard is a feature: these tests leak on purpose and check the guard notices. */
class NettyLeakGuardTest {
    /** Configuration parameter that lets {@link LeakingFixture} run; only the nested launcher sets it. */
    private static final String RUN_FIXTURE = "riptide.test.leakFixture";
    private static final String FIXTURE_MARKER = "riptide-leak-fixture";

    @Test
    void isInstalledBeforeBuffersAreInitialised() {
        assertTrue(NettyLeakGuard.isActive(), "every buffer tracked, every leak recorded");
    }

    @Test
    void recordsADeliberatelyLeakedBuffer() {
        String marker = "deliberate-leak-" + UUID.randomUUID();
        leak(marker);
        List<Leak> found = new ArrayList<>();
        Await.until("the guard records the leaked buffer", () -> {
            NettyLeakGuard.provoke();
            // Drained here so this class's own leak check stays green.
            found.addAll(NettyLeakGuard.drainMatching(marker));
            return !found.isEmpty();
        });
        assertEquals(1, found.size(), found::toString);
        assertTrue(found.get(0).resourceType().contains("ByteBuf"), found.get(0).resourceType());
        assertTrue(found.get(0).records().contains(marker));
        assertTrue(found.get(0).records().contains(NettyLeakGuardTest.class.getName() + ".leak"),
                "the records name the allocation site");
    }

    @Test
    void aLeakFailsTheTestClassAfterWhichItWasFound() {
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectClass(LeakingFixture.class))
                .configurationParameter(RUN_FIXTURE, "true")
                .build();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(request, listener);
        TestExecutionSummary summary = listener.getSummary();

        assertEquals(1, summary.getTestsSucceededCount(), "the leaking test itself passes");
        assertEquals(1, summary.getContainersFailedCount(), "its class fails");
        Throwable failure = summary.getFailures().get(0).getException();
        assertTrue(failure instanceof AssertionError, failure::toString);
        assertTrue(failure.getMessage().contains(FIXTURE_MARKER), failure.getMessage());
        assertTrue(NettyLeakGuard.drainMatching(FIXTURE_MARKER).isEmpty(), "the check drained what it reported");
    }

    private static void leak(String marker) {
        // Direct: Netty tracks unpooled heap buffers not at all, as the collector frees them anyway.
        ByteBuf buf = UnpooledByteBufAllocator.DEFAULT.directBuffer(16);
        buf.writeLong(42).touch(marker);
        // Never released: once this frame returns the buffer is unreachable and leaked.
    }

    /** A test class that leaks; runs only when {@link #aLeakFailsTheTestClassAfterWhichItWasFound} launches it. */
    @ExtendWith(OnlyWhenLaunchedByTheGuardTest.class)
    static final class LeakingFixture {
        @Test
        void leaksABuffer() {
            leak(FIXTURE_MARKER);
        }
    }

    /** Keeps {@link LeakingFixture} from running in an ordinary test run (IDE "run all", for instance). */
    static final class OnlyWhenLaunchedByTheGuardTest implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            return context.getConfigurationParameter(RUN_FIXTURE).isPresent()
                    ? ConditionEvaluationResult.enabled("launched by NettyLeakGuardTest")
                    : ConditionEvaluationResult.disabled("leaks on purpose; run by NettyLeakGuardTest only");
        }
    }
}
