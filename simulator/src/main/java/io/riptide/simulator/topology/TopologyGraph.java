package io.riptide.simulator.topology;

import java.util.List;

/**
 * The explicit transit-stub graph a {@link TopologyGenerator} draws: every link, and which hosts form
 * each stub, its single border host and the transit router it hangs from. Hosts of stub {@code s} are
 * numbered contiguously from {@link #firstHost(int)}.
 */
public final class TopologyGraph {
    private final TopologyParams params;
    private final List<Link> links;
    private final int[] stubStart;
    private final int[] borderHost;
    private final int[] stubRouter;
    private final int[] routerDomain;

    TopologyGraph(TopologyParams params, List<Link> links, int[] stubStart, int[] borderHost,
            int[] stubRouter, int[] routerDomain) {
        this.params = params;
        this.links = List.copyOf(links);
        this.stubStart = stubStart.clone();
        this.borderHost = borderHost.clone();
        this.stubRouter = stubRouter.clone();
        this.routerDomain = routerDomain.clone();
    }

    /** The parameters the graph was drawn with. */
    public TopologyParams params() {
        return params;
    }

    /** Every link; transit router {@code r} is vertex {@code hostCount() + r}. */
    public List<Link> links() {
        return links;
    }

    /** Overlay hosts (stub hosts), numbered {@code 0..hostCount()-1}. */
    public int hostCount() {
        return params.hosts();
    }

    /** Hosts plus transit routers. */
    public int vertexCount() {
        return hostCount() + routerCount();
    }

    /** Stub domains. */
    public int stubCount() {
        return borderHost.length;
    }

    /** Transit routers. */
    public int routerCount() {
        return routerDomain.length;
    }

    /** The lowest-numbered host of {@code stub}. */
    public int firstHost(int stub) {
        return stubStart[stub];
    }

    /** Hosts in {@code stub}. */
    public int stubSize(int stub) {
        return stubStart[stub + 1] - stubStart[stub];
    }

    /** The one host of {@code stub} that links to its transit router. */
    public int borderHost(int stub) {
        return borderHost[stub];
    }

    /** The transit router {@code stub} hangs from. */
    public int routerOfStub(int stub) {
        return stubRouter[stub];
    }

    /** The transit domain of router {@code router}. */
    public int domainOfRouter(int router) {
        return routerDomain[router];
    }
}
