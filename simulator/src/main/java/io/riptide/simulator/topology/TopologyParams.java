package io.riptide.simulator.topology;

/**
 * The shape of a transit-stub topology: how many overlay hosts, how many per stub domain, how many
 * stubs hang off each transit router, how many routers form a transit domain, and how densely the
 * hosts inside a stub are linked beyond a spanning tree.
 */
public record TopologyParams(
        int hosts,
        int hostsPerStub,
        int stubsPerTransitRouter,
        int transitRoutersPerDomain,
        double extraStubLinksPerHost) {

    /** Hosts per stub in the paper's setting (1100 nodes, about 100 per stub). */
    public static final int DEFAULT_HOSTS_PER_STUB = 100;
    /** Several stubs per router, so some stubs are near each other (same router) and others far. */
    public static final int DEFAULT_STUBS_PER_TRANSIT_ROUTER = 3;
    /** Transit routers per transit domain. */
    public static final int DEFAULT_TRANSIT_ROUTERS_PER_DOMAIN = 4;
    /** Extra random intra-stub links per host on top of a spanning tree: mean degree about 4. */
    public static final double DEFAULT_EXTRA_STUB_LINKS_PER_HOST = 1.0;

    public TopologyParams {
        if (hosts < 1) {
            throw new IllegalArgumentException("hosts must be at least 1, got " + hosts);
        }
        if (hostsPerStub < 1) {
            throw new IllegalArgumentException("hostsPerStub must be at least 1, got " + hostsPerStub);
        }
        if (stubsPerTransitRouter < 1) {
            throw new IllegalArgumentException("stubsPerTransitRouter must be at least 1, got " + stubsPerTransitRouter);
        }
        if (transitRoutersPerDomain < 1) {
            throw new IllegalArgumentException("transitRoutersPerDomain must be at least 1, got " + transitRoutersPerDomain);
        }
        if (!(extraStubLinksPerHost >= 0) || Double.isInfinite(extraStubLinksPerHost)) {
            throw new IllegalArgumentException("extraStubLinksPerHost must be finite and >= 0, got " + extraStubLinksPerHost);
        }
    }

    /** The paper's proportions for {@code hosts} hosts. */
    public static TopologyParams forHosts(int hosts) {
        return new TopologyParams(hosts, DEFAULT_HOSTS_PER_STUB, DEFAULT_STUBS_PER_TRANSIT_ROUTER,
                DEFAULT_TRANSIT_ROUTERS_PER_DOMAIN, DEFAULT_EXTRA_STUB_LINKS_PER_HOST);
    }

    /** These parameters with a different stub size. */
    public TopologyParams withHostsPerStub(int perStub) {
        return new TopologyParams(hosts, perStub, stubsPerTransitRouter, transitRoutersPerDomain, extraStubLinksPerHost);
    }

    /** Number of stub domains: enough that none holds more than {@link #hostsPerStub} hosts. */
    public int stubCount() {
        return (hosts + hostsPerStub - 1) / hostsPerStub;
    }

    /** Number of transit routers: one per {@link #stubsPerTransitRouter} stubs. */
    public int transitRouterCount() {
        return (stubCount() + stubsPerTransitRouter - 1) / stubsPerTransitRouter;
    }

    /** Number of transit domains; at least two whenever there are two routers, so inter-domain links exist. */
    public int transitDomainCount() {
        int routers = transitRouterCount();
        int byRatio = (routers + transitRoutersPerDomain - 1) / transitRoutersPerDomain;
        return Math.max(byRatio, Math.min(routers, 2));
    }
}
