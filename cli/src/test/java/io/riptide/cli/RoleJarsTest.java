package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The gateway's and the cache manager's own jars start the same command as {@code riptide ROLE}: the
 * same help (the golden files) and the same exit code for bad usage. Runs their main classes in a
 * JVM of their own, as {@code java -jar} would.
 */
class RoleJarsTest {
    private static final Path GOLDEN = Path.of("src/test/resources/help");

    @Test
    void theGatewayJarIsRiptideGateway() throws Exception {
        assertEquals(Files.readString(GOLDEN.resolve("gateway.txt"), StandardCharsets.UTF_8), run(GatewayMain.class, 0, "--help"));
        run(GatewayMain.class, 2, "--no-such-option");
    }

    @Test
    void theCacheManagerJarIsRiptideCacheManager() throws Exception {
        assertEquals(Files.readString(GOLDEN.resolve("cache-manager.txt"), StandardCharsets.UTF_8),
                run(CacheManagerMain.class, 0, "--help"));
        run(CacheManagerMain.class, 2, "--no-such-option");
    }

    /** Runs {@code main} with {@code args}, checks its exit code and returns what it printed. */
    private static String run(Class<?> main, int exitCode, String... args) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> command = new java.util.ArrayList<>(List.of(java, "-cp", classPath, main.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(main.getSimpleName() + " did not exit");
        }
        String text = new String(out, StandardCharsets.UTF_8);
        assertEquals(exitCode, p.exitValue(), text);
        return text.replace("\r\n", "\n");
    }
}
