package io.riptide.core.testing;

import io.netty.util.ResourceLeakDetector;

/** A Netty leak detector that hands every report to {@link NettyLeakGuard} as well as logging it. */
final class RecordingLeakDetector<T> extends ResourceLeakDetector<T> {
    RecordingLeakDetector(Class<?> resourceType, int samplingInterval) {
        super(resourceType, samplingInterval);
    }

    @Override
    protected boolean needReport() {
        // The default asks whether error logging is on; with no logging backend a leak would vanish.
        return true;
    }

    @Override
    protected void reportTracedLeak(String resourceType, String records) {
        NettyLeakGuard.record(new Leak(resourceType, records));
        super.reportTracedLeak(resourceType, records);
    }

    @Override
    protected void reportUntracedLeak(String resourceType) {
        NettyLeakGuard.record(new Leak(resourceType, ""));
        super.reportUntracedLeak(resourceType);
    }
}
