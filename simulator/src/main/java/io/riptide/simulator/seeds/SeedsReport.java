package io.riptide.simulator.seeds;

import io.riptide.simulator.paper.PaperFigure;
import io.riptide.simulator.paper.ReportHtml;
import io.riptide.simulator.paper.TargetFields;
import io.riptide.simulator.report.Charts;
import java.awt.Color;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.riptide.simulator.paper.ReportHtml.esc;

/**
 * Writes a multi-seed run's {@code report.html}: for each figure, every seed's verdict and target
 * figures side by side and how many seeds met the target, then the first seed's charts; each seed's
 * own one-seed report is linked. Every seed is shown, met or missed: a target met at one seed of five
 * is not a target met. For {@code paper} also draws {@code seeds-met.png}, seeds met per figure.
 */
public final class SeedsReport {
    /** The chart of seeds met per figure. */
    public static final String CHART = "seeds-met.png";
    /** The report's own colours for met and missed, so the chart reads like the tables. */
    private static final Color MET = new Color(0x17, 0x6f, 0x2c);
    private static final Color MISSED = new Color(0xb3, 0x26, 0x1e);

    private SeedsReport() {
    }

    /** Writes {@code out/report.html} (and the chart) for {@code summary}; nothing if it has no figures. */
    public static void write(Path out, SeedSummary summary) throws IOException {
        if (summary.figures().isEmpty()) {
            return;
        }
        boolean paper = summary.nested();
        if (paper) {
            chart(out.resolve(CHART), summary);
        }
        String title = paper ? "Riptide: the paper's section 6, redrawn at " + summary.seeds().size() + " seeds"
                : "Riptide: " + summary.scenario() + " at " + summary.seeds().size() + " seeds";
        StringBuilder html = new StringBuilder(ReportHtml.head(title));
        // While a run goes on, counts are out of the seeds run so far, which the page says.
        boolean partial = summary.runs().size() < summary.seeds().size();
        html.append("<h1>").append(esc(title)).append("</h1>\n<p>Seeds ").append(summary.seeds().text()).append("; ")
                .append(summary.runs().size()).append(" of ").append(summary.seeds().size()).append(" run")
                .append(partial ? " so far" : "")
                .append(". Each seed ran on its own into <code>seed-N/</code> with its own report, <code>result.json</code>, CSV and charts. ")
                .append("Every seed is shown, met or missed. The top-level <code>result.json</code> carries the first seed's figures ")
                .append("plus <code>per_seed</code>.</p>\n");
        html.append("<table><tr><th>figure</th><th>scenario</th><th>seeds met</th>");
        for (SeedOutcome run : summary.runs()) {
            html.append("<th>seed ").append(run.seed()).append("</th>");
        }
        html.append("</tr>\n");
        int everySeed = 0;
        for (FigureOutcomes f : summary.figures()) {
            boolean all = f.met() == f.seeds().size();
            everySeed += all ? 1 : 0;
            html.append("<tr><td><a href=\"#").append(f.figure().scenario()).append("\">").append(esc(f.figure().figure()))
                    .append("</a></td><td><code>").append(f.figure().scenario()).append("</code></td><td class=\"")
                    .append(all ? "met" : "missed").append("\">").append(seedsMet(f)).append("</td>");
            for (SeedOutcome o : f.seeds()) {
                html.append("<td class=\"").append(o.met() ? "met" : "missed").append("\">").append(o.met() ? "met" : shortVerdict(o))
                        .append("</td>");
            }
            html.append("</tr>\n");
        }
        html.append("</table>\n<p>").append(everySeed).append(" of ").append(summary.figures().size())
                .append(" targets met at every seed").append(partial ? " run so far" : "").append(".</p>\n");
        if (paper && Files.exists(out.resolve(CHART))) {
            html.append("<p><img src=\"").append(CHART).append("\" alt=\"seeds meeting each figure's target\"></p>\n");
        }
        for (FigureOutcomes f : summary.figures()) {
            section(html, f, summary, out);
        }
        html.append("</body></html>\n");
        Files.writeString(out.resolve("report.html"), html.toString(), StandardCharsets.UTF_8);
    }

    private static void section(StringBuilder html, FigureOutcomes f, SeedSummary summary, Path out) {
        PaperFigure figure = f.figure();
        List<String> fields = TargetFields.of(figure.scenario()).isEmpty() ? figure.fields() : TargetFields.of(figure.scenario());
        html.append("<section id=\"").append(figure.scenario()).append("\"><h2>").append(esc(figure.figure())).append(": ")
                .append(esc(figure.measured())).append("</h2>\n<table><tr><th>paper</th><td>").append(esc(figure.paperResult()))
                .append("</td></tr><tr><th>our target</th><td>").append(esc(figure.target())).append("</td></tr>")
                .append("<tr><th>seeds met</th><td class=\"").append(f.met() == f.seeds().size() ? "met" : "missed").append("\">")
                .append(seedsMet(f)).append("</td></tr></table>\n");
        html.append("<table><tr><th>seed</th><th>verdict</th>");
        for (String field : fields) {
            html.append("<th><code>").append(esc(field)).append("</code></th>");
        }
        html.append("<th>report</th></tr>\n");
        for (SeedOutcome o : f.seeds()) {
            html.append("<tr><td>").append(o.seed()).append("</td><td class=\"").append(o.met() ? "met" : "missed").append("\">")
                    .append(o.verdict()).append("</td>");
            for (String field : fields) {
                html.append("<td>").append(o.result() != null && o.result().has(field) ? esc(o.result().get(field).toString()) : "–")
                        .append("</td>");
            }
            // A paper seed's report has every figure; a one-scenario seed's report is this figure alone.
            String report = summary.nested() ? dirOfSeed(o) + "/report.html#" + figure.scenario() : o.dir() + "/report.html";
            html.append("<td><a href=\"").append(report).append("\">seed ").append(o.seed()).append("</a>, <a href=\"")
                    .append(o.dir()).append("/result.json\">result.json</a></td></tr>\n");
        }
        html.append("</table>\n");
        if (!f.seeds().isEmpty()) {
            SeedOutcome first = f.seeds().get(0);
            html.append("<p>Charts of seed ").append(first.seed()).append(" (the other seeds' are in their own reports):</p>\n");
            for (String chart : figure.charts()) {
                if (!Files.exists(out.resolve(first.dir()).resolve(chart))) {
                    continue;
                }
                html.append("<p><img src=\"").append(first.dir()).append('/').append(chart).append("\" alt=\"")
                        .append(esc(figure.figure() + " " + chart + ", seed " + first.seed())).append("\"></p>\n");
            }
        }
        html.append("</section>\n");
    }

    /** "4 of 5": seeds that met the figure's target, of the seeds run. */
    private static String seedsMet(FigureOutcomes f) {
        return f.met() + " of " + f.seeds().size();
    }

    private static String shortVerdict(SeedOutcome o) {
        return o.result() == null ? "not run" : o.hasVerdict() ? "missed" : "no target";
    }

    private static String dirOfSeed(SeedOutcome o) {
        return SeedSummary.dirName(o.seed());
    }

    /** Bars of seeds met and missed per figure, so a figure that holds at only some seeds stands out. */
    private static void chart(Path png, SeedSummary summary) throws IOException {
        List<String> labels = summary.figures().stream().map(f -> f.figure().scenario()).toList();
        double[] met = summary.figures().stream().mapToDouble(FigureOutcomes::met).toArray();
        double[] missed = summary.figures().stream().mapToDouble(f -> f.seeds().size() - f.met()).toArray();
        Map<String, double[]> bars = new LinkedHashMap<>();
        bars.put("target met", met);
        bars.put("target missed", missed);
        new Charts(1200, 500).stackedCounts(png, "Seeds meeting each figure's target (" + summary.runs().size() + " of "
                + summary.seeds().size() + " seeds run)", "figure", "seeds", labels, bars, summary.seeds().size(), List.of(MET, MISSED));
    }
}
