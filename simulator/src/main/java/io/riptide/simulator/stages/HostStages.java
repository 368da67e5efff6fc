package io.riptide.simulator.stages;

import io.riptide.core.runtime.sim.SimEnv;
import io.riptide.core.runtime.sim.SimNetwork;
import io.riptide.core.runtime.sim.SimStageSpec;
import io.riptide.core.stage.StageConfig;
import io.riptide.core.stage.StageMetrics;
import io.riptide.dolr.server.ServerSettings;
import io.riptide.proxy.OverlayCacheLookup;
import io.riptide.proxy.cache.OverlayCacheConfig;
import io.riptide.proxy.cache.ProxyCache;
import io.riptide.simulator.report.ResultJson;
import java.util.List;

/**
 * The stages of a simulated host, as a deployment starts them, with {@link ServiceTimes#MEASURED}'s
 * service times, on {@link SimNetwork#cores} cores each:
 *
 * <ul>
 *   <li>{@code crypto}: the node's stage for hashing and signing ({@link ServerSettings#defaultCryptoStage}:
 *       256 waiting, 2 threads); the gateway signs and hashes there;</li>
 *   <li>{@code verify}: the proxy's stage for checking a copy ({@link OverlayCacheLookup#verifyStage}:
 *       {@code verifyQueue} waiting, one thread per core);</li>
 *   <li>{@link #FRONT_STAGE}: the proxy's HTTP front, which is Netty event loops, one per core
 *       ({@code ProxyConfig.defaultLoops}), not a SEDA stage; modelled as one so that each request's
 *       parsing and answering costs a core. Its queue is unbounded, as a loop's task queue is;</li>
 *   <li>{@link #ACCESS_STAGE}: the access node's handling of a client's read (decode, locate, the
 *       replica's bytes back), on the node's one event loop: one thread, unbounded.</li>
 * </ul>
 *
 * <p>The last two are the simulator's names for work that runs on event loops over TCP; protocol
 * code never submits to them, the simulated proxy ({@code SimulatedProxy}) does.
 */
public final class HostStages {
    /** The proxy's HTTP front (its event loops), as a stage. */
    public static final String FRONT_STAGE = "proxy-front";
    /** The access node's event loop serving a proxy's read, as a stage. */
    public static final String ACCESS_STAGE = "access";

    private HostStages() {
    }

    /** The stages of a host of {@code cores} cores whose proxy is configured by {@code proxy}. */
    public static List<SimStageSpec> specs(int cores, OverlayCacheConfig proxy, ServiceTimes times) {
        return List.of(
                new SimStageSpec(ServerSettings.defaultCryptoStage(), times.cryptoNanos()),
                new SimStageSpec(OverlayCacheLookup.verifyStage(proxy, cores), times.verifyNanos()),
                new SimStageSpec(StageConfig.of(FRONT_STAGE, Integer.MAX_VALUE, 1, cores), times.frontNanos()),
                new SimStageSpec(StageConfig.of(ACCESS_STAGE, Integer.MAX_VALUE, 1, 1), times.accessNanos()));
    }

    /** Defines {@link #specs} with the measured times on every host of {@code network}. */
    public static void define(SimNetwork network, OverlayCacheConfig proxy) {
        specs(network.cores(), proxy, ServiceTimes.MEASURED).forEach(network::defineStage);
    }

    /** Writes the CPU model of {@code network} (cores, each stage's bounds and service time, where it came from) into {@code into}. */
    public static void describe(SimNetwork network, ResultJson into) {
        into.put("cores_per_host", (long) network.cores());
        into.put("calibration", ServiceTimes.SOURCE);
        ResultJson.ObjectList stages = into.objects("stages");
        for (String name : List.of(ServerSettings.CRYPTO_STAGE, ProxyCache.VERIFY_STAGE, FRONT_STAGE, ACCESS_STAGE)) {
            SimStageSpec spec = network.stageSpec(name);
            if (spec != null) {
                StageConfig c = spec.config();
                stages.add().put("name", name)
                        .put("queue", c.queueCapacity() == Integer.MAX_VALUE ? -1L : (long) c.queueCapacity())
                        .put("threads", (long) c.maxThreads())
                        .put("service_us", spec.serviceNanos() / 1e3)
                        .put("measured_by", ServiceTimes.measuredBy(name));
            }
        }
    }

    /** What the hosts at {@code vertices} have used of their cores and stages so far. */
    public static Usage usage(SimNetwork network, List<Integer> vertices) {
        long[] busy = new long[vertices.size()];
        long refused = 0;
        for (int i = 0; i < busy.length; i++) {
            SimEnv env = network.env(vertices.get(i));
            if (env != null) {
                busy[i] = env.cpuBusyNanos();
                refused += env.stageMetrics().values().stream().mapToLong(StageMetrics::refused).sum();
            }
        }
        return new Usage(busy, refused);
    }

    /**
     * Core time and refusals of a list of hosts so far.
     *
     * @param hostBusyNanos core time each host has used, in the list's order
     * @param refused events their stages have refused (queue full)
     */
    public record Usage(long[] hostBusyNanos, long refused) {
        /** The largest share of its cores any one host used between {@code before} and this, over {@code nanos} of time. */
        public double maxUtilisationSince(Usage before, long nanos, int cores) {
            long max = 0;
            for (int i = 0; i < hostBusyNanos.length; i++) {
                max = Math.max(max, hostBusyNanos[i] - before.hostBusyNanos[i]);
            }
            return nanos <= 0 ? 0 : max / ((double) nanos * cores);
        }

        /** Events refused between {@code before} and this. */
        public long refusedSince(Usage before) {
            return refused - before.refused;
        }
    }
}
