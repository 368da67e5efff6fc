package io.riptide.core.testing;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Installs the {@link NettyLeakGuard} when a JUnit launcher session opens, which is before any test
 * class (and so any Netty buffer class) is loaded. Registered through {@code META-INF/services}.
 */
public final class NettyLeakGuardSession implements LauncherSessionListener {
    @Override
    public void launcherSessionOpened(LauncherSession session) {
        NettyLeakGuard.install();
    }
}
