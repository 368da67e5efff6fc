package io.riptide.simulator.stages;

import io.riptide.dolr.server.ServerSettings;
import io.riptide.proxy.cache.ProxyCache;

/**
 * What one event costs each simulated stage, in virtual nanoseconds of one core.
 *
 * @param cryptoNanos one signing job of the gateway's ({@code crypto} stage)
 * @param verifyNanos checking one copy a proxy read ({@code verify} stage)
 * @param frontNanos the proxy's HTTP front's share of one request ({@link HostStages#FRONT_STAGE})
 * @param accessNanos the access node's loop serving one read of a proxy's ({@link HostStages#ACCESS_STAGE})
 */
public record ServiceTimes(long cryptoNanos, long verifyNanos, long frontNanos, long accessNanos) {
    public ServiceTimes {
        if (cryptoNanos < 0 || verifyNanos < 0 || frontNanos < 0 || accessNanos < 0) {
            throw new IllegalArgumentException("service times must not be negative");
        }
    }

    /**
     * Measured on the machine the figures come from (2 cores, Intel Xeon KVM guest, OpenJDK 17.0.15):
     *
     * <ul>
     *   <li><b>crypto 32.3 µs</b>: {@code ObjectSigningBenchmark.sign} of a 1 KB object (Ed25519 and
     *       SHA-256), {@code java -jar benchmarks/target/benchmarks.jar ObjectSigning -f 1 -wi 2 -i 3 -w 1s -r 1s},
     *       {@code benchmarks/RESULTS.md} (load 1.5–1.7). A heartbeat signs fewer bytes, a 16 KB copy
     *       about 9 µs more; one figure per stage, so the common small case.</li>
     *   <li><b>verify 77.3 µs</b>: {@code ObjectSigningBenchmark.decodeAndVerify}, 1 KB, same run: decode,
     *       body SHA-256, one Ed25519 verification. The shipped proxy remembers signatures it verified
     *       ({@code VerifiedSignatures}: a repeat of a version costs about 6 µs for 10 KB, architecture.md),
     *       which one time per stage cannot tell apart, so every copy is charged the first sight: an
     *       upper bound for hot objects.</li>
     *   <li><b>proxy-front 20.1 µs</b>: 2 cores ÷ 99,532 memory hits a second at 1 KB ({@code riptide bench
     *       hit-throughput --out runs/hits}, run ht4 of 2026-11-26 in {@code docs/results.md}: wrk -t2 -c64
     *       on the same 2 cores). A memory hit is the front's whole work (parse, look up, answer); wrk's own
     *       share of the cores is in it too, so this is an upper bound.</li>
     *   <li><b>access 32.7 µs</b>: the same run's overlay hits, 2 cores ÷ 33,992 a second = 58.8 µs each,
     *       less the front's 20.1 µs and a remembered signature's 6 µs: what an overlay read adds (the hop
     *       to the overlay client, the read to the access node and back over loopback TCP, its locate and
     *       the replica's bytes), charged to the access node's one loop.</li>
     * </ul>
     *
     * <p>Re-running the JMH figures for this work (2026-11-26, {@code ... 'ObjectSigningBenchmark.(sign|decodeAndVerify)|
     * VerifiedSignaturesBenchmark.verify(With|Without)Memo' -p bodyBytes=1024 -f 1 -wi 2 -i 3 -w 1s -r 1s}) on the
     * same machine under a load average of 9 gave sign 143 µs, decodeAndVerify 145 µs, 9.4 µs with the memo,
     * 253 µs without: two to four times the quiet figures, errors wider than the scores, so the quiet run's
     * figures stand.
     */
    public static final ServiceTimes MEASURED = new ServiceTimes(32_288, 77_280, 20_100, 32_700);

    /** Where {@link #MEASURED} comes from, in one line for {@code result.json}. */
    public static final String SOURCE = "JMH ObjectSigningBenchmark (benchmarks/RESULTS.md) for crypto and verify; "
            + "riptide bench hit-throughput run ht4 (docs/results.md, 2026-11-26) for the proxy front and the access node; "
            + "2 cores as the measuring machine";

    /** The measurement behind {@code stage}'s service time in {@link #MEASURED}. */
    static String measuredBy(String stage) {
        if (stage.equals(ServerSettings.CRYPTO_STAGE)) {
            return "ObjectSigningBenchmark.sign, 1 KB: 32.3 us";
        }
        if (stage.equals(ProxyCache.VERIFY_STAGE)) {
            return "ObjectSigningBenchmark.decodeAndVerify, 1 KB: 77.3 us (first sight of a version; a remembered signature costs ~6 us)";
        }
        if (stage.equals(HostStages.FRONT_STAGE)) {
            return "bench hit-throughput ht4: 2 cores / 99,532 memory hits per s at 1 KB = 20.1 us";
        }
        if (stage.equals(HostStages.ACCESS_STAGE)) {
            return "bench hit-throughput ht4: 2 cores / 33,992 overlay hits per s at 1 KB = 58.8 us, less front 20.1 us and a remembered"
                    + " signature's 6 us = 32.7 us";
        }
        return "not measured";
    }
}
