package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.riptide.core.crypto.SigningKey;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The exact message and exit code of each failure a user meets: 1 when something failed at run time
 * (port in use, join target unreachable, a bug), 2 when the command line or a file is wrong
 * (unknown host, key file missing, unreadable or corrupt). No stack trace without --debug.
 */
class RuntimeErrorsTest {
    private static final String N = System.lineSeparator();

    @TempDir
    Path dir;

    private final CliRun cli = new CliRun();

    private static String help(String command) {
        return "Try 'riptide " + command + " --help' for the options and their defaults." + N;
    }

    @Test
    void aNodeOnAPortInUseSaysSoAndExits1() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            assertEquals(1, cli.run("node", "--port", Integer.toString(port)));
            assertEquals("riptide node: port " + port + " is in use: choose another with --port or stop the process using it" + N,
                    cli.err());
        }
    }

    @Test
    void aStoreThatCannotBeCreatedSaysWhereAndExits1() throws Exception {
        Path file = java.nio.file.Files.writeString(dir.resolve("a-file"), "not a directory");
        Path store = file.resolve("store");
        assertEquals(1, cli.run("node", "--port", "0", "--store", store.toString(), "--disk-gb", "0.05"));
        assertTrue(cli.err().startsWith("riptide node: cannot open the replica store in " + store + ": "), cli.err());
        assertTrue(cli.err().endsWith("; check that --store names a writable directory with room for --disk-gb" + N), cli.err());
    }

    @Test
    void aProxyOnAPortInUseSaysSoAndExits1() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            int port = taken.getLocalPort();
            assertEquals(1, cli.run("proxy", "--port", Integer.toString(port)));
            assertEquals("riptide proxy: port " + port + " is in use: choose another with --port or stop the process using it" + N,
                    cli.err());
        }
    }

    @Test
    void anAddressOfAnotherMachineIsNamed() {
        // TEST-NET-1: a valid address that is never this machine's.
        assertEquals(1, cli.run("node", "--port", "0", "--host", "192.0.2.1"));
        assertEquals("riptide node: cannot listen on 192.0.2.1: it is not an address of this machine; choose one with --host"
                + " (127.0.0.1, or an address that 'ip addr' lists)" + N, cli.err());
    }

    @Test
    void anUnknownHostIsAUsageError() {
        assertEquals(2, cli.run("node", "--port", "0", "--host", "no-such-host.invalid"));
        assertEquals("riptide node: --host: unknown host 'no-such-host.invalid': give an IP address, or a name this machine can resolve"
                + N + help("node"), cli.err());
    }

    @Test
    void aJoinTargetThatNeverAnswersFailsAfterTheJoinTimeout() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            closed = s.getLocalPort();
        }
        long start = System.nanoTime();
        assertEquals(1, cli.run("node", "--port", "0", "--join", "127.0.0.1:" + closed, "--join-timeout", "1s"));
        assertEquals("riptide node: could not join the overlay through 127.0.0.1:" + closed + " within 1s: check that a node runs"
                + " there and that this machine can reach it (address, firewall), or allow longer with --join-timeout" + N, cli.err());
        assertTrue(cli.out().contains(" listening on 127.0.0.1:"), cli.out());
        assertTrue(System.nanoTime() - start < 30_000_000_000L, "bounded by the timeout, not by the node's own retries");
    }

    @Test
    void aMissingProviderKeyFileSaysHowToMakeOne() {
        Path missing = dir.resolve("provider.key");
        assertEquals(2, cli.run("cache-manager", "--provider", missing.toString(), "--port", "0"));
        assertEquals("riptide cache-manager: --provider: no key file at " + missing + ": make one with 'riptide keygen --out "
                + missing + "', or check the path" + N + help("cache-manager"), cli.err());
    }

    @Test
    void aProxyWithAMissingProviderKeyFileSaysToGiveThePublicKey() {
        Path missing = dir.resolve("provider.key");
        assertEquals(2, cli.run("proxy", "--port", "0", "--provider", missing.toString()));
        assertEquals("riptide proxy: --provider: no key file at " + missing + ": give the provider's public key as ed25519:BASE64"
                + " (as its gateway prints it), or check the path" + N + help("proxy"), cli.err());
    }

    @Test
    void aCorruptKeyFileIsNamedWithTheLineThatIsWrong() throws Exception {
        Path bad = dir.resolve("node.key");
        Files.writeString(bad, "this is not a key\n");
        assertEquals(2, cli.run("node", "--port", "0", "--key", bad.toString()));
        assertEquals("riptide node: --key: " + bad + " is not a usable key file (" + bad + ":1: expected 'private: ' or 'public: ',"
                + " got 'this is not a key'): restore it from a backup, or make a new one with 'riptide keygen --out " + bad
                + " --force' (a new key is a new identity)" + N + help("node"), cli.err());
    }

    @Test
    void anUnreadableKeyFileSaysWhoMustReadIt() throws Exception {
        assumeFalse("root".equals(System.getProperty("user.name")), "root reads every file");
        Path locked = dir.resolve("provider.key");
        SigningKey.generate(new SecureRandom()).save(locked);
        Files.setPosixFilePermissions(locked, PosixFilePermissions.fromString("---------"));
        assumeFalse(Files.isReadable(locked), "this file system ignores permissions");
        assertEquals(2, cli.run("gateway", "--key", locked.toString(), "--port", "0"));
        assertEquals("riptide gateway: --key: cannot read " + locked
                + ": permission denied; the key must be readable by the user running riptide" + N + help("gateway"), cli.err());
    }

    @Test
    void aKeyThatCannotBeCreatedSaysWhere() throws Exception {
        Path notADirectory = Files.writeString(dir.resolve("plain-file"), "x");
        Path key = notADirectory.resolve("node.key");
        assertEquals(2, cli.run("node", "--port", "0", "--key", key.toString()));
        assertTrue(cli.err().startsWith("riptide node: --key: cannot create a key at " + key + " ("), cli.err());
        assertTrue(cli.err().endsWith("): check that its directory exists and is writable by this user" + N + help("node")), cli.err());
    }

    @Command(name = "boom")
    static final class Boom implements Callable<Integer> {
        @Override
        public Integer call() {
            throw new IllegalStateException("broken");
        }
    }

    private static int runBoom(Map<String, String> env, CliRun sink, String... args) {
        CommandLine cl = new CommandLine(new Boom());
        Riptide.applyConventions(cl, env);
        return sink.run(cl, args);
    }

    @Test
    void anUnexpectedFailureIsOneLineWithoutAStackTraceUnlessDebugIsAsked() {
        assertEquals(1, runBoom(Map.of(), cli));
        assertEquals("boom: unexpected error: java.lang.IllegalStateException: broken; run again with --debug (or RIPTIDE_DEBUG=1)"
                + " for the stack trace, and report it if it happens again" + N, cli.err());

        CliRun debug = new CliRun();
        assertEquals(1, runBoom(Map.of(), debug, "--debug"));
        assertTrue(debug.err().contains("\tat " + Boom.class.getName() + ".call("), debug.err());

        CliRun fromEnv = new CliRun();
        assertEquals(1, runBoom(Map.of("RIPTIDE_DEBUG", "1"), fromEnv));
        assertTrue(fromEnv.err().contains("\tat " + Boom.class.getName() + ".call("), fromEnv.err());
        CliRun off = new CliRun();
        assertEquals(1, runBoom(Map.of("RIPTIDE_DEBUG", "0"), off));
        assertFalse(off.err().contains("\tat "), off.err());
    }
}
