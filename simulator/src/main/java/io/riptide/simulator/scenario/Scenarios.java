package io.riptide.simulator.scenario;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/** An immutable set of scenarios, looked up by name and listed in name order. */
public final class Scenarios {
    private final List<Scenario> scenarios;

    /** The given scenarios; names must be distinct. */
    public Scenarios(List<Scenario> scenarios) {
        List<Scenario> sorted = new ArrayList<>(scenarios);
        sorted.sort(Comparator.comparing(Scenario::name));
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).name().equals(sorted.get(i - 1).name())) {
                throw new IllegalArgumentException("two scenarios named '" + sorted.get(i).name() + "'");
            }
        }
        this.scenarios = List.copyOf(sorted);
    }

    /** Every scenario that ships with Riptide. Add new scenarios to this list. */
    public static Scenarios builtIn() {
        return new Scenarios(List.of(
                new TopologyScenario(),
                new RoutingScaleScenario(),
                new ChurnScenario(),
                new PlacementLoadScenario(),
                new DisseminationScenario(),
                new ServiceDiscoveryScenario(),
                new FlashCrowdScenario(),
                new PushCachingScenario(),
                new OriginShieldScenario(),
                new ServiceLocationScenario(),
                new HitLatencyScenario(),
                new TraceReplayScenario(),
                new FaultsScenario(),
                new HostileScenario(),
                new PaperScenario()));
    }

    /** This set plus {@code scenario}. */
    public Scenarios with(Scenario scenario) {
        List<Scenario> more = new ArrayList<>(scenarios);
        more.add(scenario);
        return new Scenarios(more);
    }

    /** The scenario called {@code name}, if any. */
    public Optional<Scenario> find(String name) {
        return scenarios.stream().filter(s -> s.name().equals(name)).findFirst();
    }

    /** All scenarios, in name order. */
    public List<Scenario> all() {
        return scenarios;
    }

    /** All scenario names, in order. */
    public List<String> names() {
        return scenarios.stream().map(Scenario::name).toList();
    }
}
