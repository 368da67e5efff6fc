package io.riptide.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.riptide.proxy.tls.LocalCa;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code riptide ca init} and what {@code riptide proxy --intercept} says without a CA. */
class CaCommandTest {
    @TempDir
    Path dir;

    @Test
    void initMakesTheCaAndSaysHowToTrustItEverywhere() throws Exception {
        Path ca = dir.resolve("ca");
        CliRun run = new CliRun();
        assertEquals(0, run.run("ca", "init", "--dir", ca.toString()), run.err());
        String out = run.out();
        Path cert = ca.resolve("ca.pem").toAbsolutePath().normalize();
        assertTrue(out.contains("certificate: " + cert), out);
        assertTrue(out.contains("certutil -d sql:$HOME/.pki/nssdb -A -t C,, -n riptide -i " + cert), out);
        assertTrue(out.contains("Firefox: Settings > Privacy & Security > Certificates"), out);
        assertTrue(out.contains("policies.json"), out);
        assertTrue(out.contains("sudo cp " + cert + " /usr/local/share/ca-certificates/riptide.crt && sudo update-ca-certificates"), out);
        assertTrue(out.contains("security add-trusted-cert"), out);
        assertTrue(out.contains("riptide proxy --ca-dir " + ca + " --intercept HOSTS"), out);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(ca.resolve("ca-key.pem"))));
        LocalCa.load(ca);
    }

    @Test
    void initRefusesToReplaceACaWithoutForce() throws Exception {
        Path ca = dir.resolve("ca");
        assertEquals(0, new CliRun().run("ca", "init", "--dir", ca.toString()));
        byte[] first = Files.readAllBytes(ca.resolve("ca.pem"));
        CliRun again = new CliRun();
        assertEquals(2, again.run("ca", "init", "--dir", ca.toString()));
        assertTrue(again.err().contains("a CA already exists in " + ca) && again.err().contains("--force"), again.err());
        assertTrue(java.util.Arrays.equals(first, Files.readAllBytes(ca.resolve("ca.pem"))), "left untouched");
        assertEquals(0, new CliRun().run("ca", "init", "--dir", ca.toString(), "--force"));
        assertTrue(!java.util.Arrays.equals(first, Files.readAllBytes(ca.resolve("ca.pem"))), "replaced when forced");
    }

    @Test
    void caAloneListsItsCommands() {
        CliRun run = new CliRun();
        assertEquals(2, run.run("ca"));
        assertTrue(run.err().contains("riptide ca: missing command: choose one of init"), run.err());
    }

    @Test
    void proxyInterceptWithoutACaSaysToRunCaInit() {
        CliRun run = new CliRun();
        Path none = dir.resolve("none");
        assertEquals(2, run.run("proxy", "--port", "0", "--intercept", "all", "--ca-dir", none.toString()));
        assertTrue(run.err().contains("--intercept needs the local CA: no local CA in " + none), run.err());
        assertTrue(run.err().contains("run `riptide ca init --dir " + none + "`"), run.err());
    }

    @Test
    void proxyInterceptRefusesABadHostListAndAnchorsWithoutIntercept() throws Exception {
        Path ca = dir.resolve("ca");
        assertEquals(0, new CliRun().run("ca", "init", "--dir", ca.toString()));
        CliRun bad = new CliRun();
        assertEquals(2, bad.run("proxy", "--port", "0", "--intercept", "all,example.org", "--ca-dir", ca.toString()));
        assertTrue(bad.err().contains("--intercept: 'all' intercepts every host and cannot be combined with a list"), bad.err());
        CliRun stray = new CliRun();
        assertEquals(2, stray.run("proxy", "--port", "0", "--origin-ca", ca.resolve("ca.pem").toString()));
        assertTrue(stray.err().contains("--origin-ca applies to intercepted HTTPS only"), stray.err());
        CliRun missingAnchor = new CliRun();
        assertEquals(2, missingAnchor.run("proxy", "--port", "0", "--intercept", "all", "--ca-dir", ca.toString(),
                "--origin-ca", dir.resolve("nope.pem").toString()));
        assertTrue(missingAnchor.err().contains("--origin-ca: no certificate file at " + dir.resolve("nope.pem")), missingAnchor.err());
    }

    @Test
    void gatewayRefusesAnUnreadableOriginTrustFile() throws Exception {
        Path notPem = Files.writeString(dir.resolve("x.pem"), "not a certificate");
        CliRun run = new CliRun();
        assertEquals(2, run.run("gateway", "--key", dir.resolve("p.key").toString(), "--port", "0", "--origin-ca", notPem.toString()));
        assertTrue(run.err().contains("--origin-ca: " + notPem), run.err());
    }
}
