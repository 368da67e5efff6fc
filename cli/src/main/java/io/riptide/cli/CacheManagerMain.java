package io.riptide.cli;

/** The cache manager's own runnable jar ({@code java -jar riptide-cache-manager.jar ...}): {@code riptide cache-manager ...}. */
public final class CacheManagerMain {
    private CacheManagerMain() {
    }

    public static void main(String[] args) {
        Riptide.main(RoleJars.prepend("cache-manager", args));
    }
}
