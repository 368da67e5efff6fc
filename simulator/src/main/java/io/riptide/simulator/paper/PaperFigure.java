package io.riptide.simulator.paper;

import java.util.List;

/**
 * One of the paper's section-6 figures as our report shows it: the scenario that redraws it, what the
 * paper found, our target, the result fields worth reading beside it, and the charts to show.
 */
public record PaperFigure(String scenario, String figure, String measured, String paperResult, String target,
                          List<String> fields, List<String> charts) {
}
