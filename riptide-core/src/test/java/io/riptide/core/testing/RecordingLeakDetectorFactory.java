package io.riptide.core.testing;

import io.netty.util.ResourceLeakDetector;
import io.netty.util.ResourceLeakDetectorFactory;

/** Makes every Netty leak detector a {@link RecordingLeakDetector}. */
final class RecordingLeakDetectorFactory extends ResourceLeakDetectorFactory {
    @Override
    @SuppressWarnings("deprecation") // Netty still declares this overload abstract; maxActive is ignored by Netty too.
    public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval, long maxActive) {
        return new RecordingLeakDetector<>(resource, samplingInterval);
    }

    @Override
    public <T> ResourceLeakDetector<T> newResourceLeakDetector(Class<T> resource, int samplingInterval) {
        return new RecordingLeakDetector<>(resource, samplingInterval);
    }
}
