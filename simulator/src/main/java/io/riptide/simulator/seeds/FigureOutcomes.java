package io.riptide.simulator.seeds;

import io.riptide.simulator.paper.PaperFigure;
import java.util.List;

/** One of the paper's figures as each seed of a multi-seed run drew it, in the order the seeds ran. */
public record FigureOutcomes(PaperFigure figure, List<SeedOutcome> seeds) {
    public FigureOutcomes {
        seeds = List.copyOf(seeds);
    }

    /** How many seeds met the figure's target. */
    public int met() {
        return (int) seeds.stream().filter(SeedOutcome::met).count();
    }
}
