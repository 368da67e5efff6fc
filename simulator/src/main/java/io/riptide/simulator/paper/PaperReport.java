package io.riptide.simulator.paper;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes {@code report.html}: for each of the paper's figures, our chart(s) redrawn from the run
 * beside what the paper found, our target, the figures from {@code result.json}, and a one-line
 * verdict. Reads each scenario's output from {@code outDir/<scenario>/}; self-contained apart
 * from the PNGs it links.
 */
public final class PaperReport {
    private PaperReport() {
    }

    /** Writes the report for {@code figures} under {@code outDir}; returns how many figures met their target. */
    public static int write(Path outDir, long seed, List<PaperFigure> figures) throws IOException {
        return write(outDir, seed, figures, true);
    }

    /**
     * Writes {@code dir/report.html} for one scenario run whose {@code result.json} and charts are in
     * {@code dir} itself; returns 1 if it met its target.
     */
    public static int writeSingle(Path dir, long seed, PaperFigure figure) throws IOException {
        return write(dir, seed, List.of(figure), false);
    }

    private static int write(Path outDir, long seed, List<PaperFigure> figures, boolean nested) throws IOException {
        ObjectMapper json = new ObjectMapper();
        StringBuilder html = new StringBuilder();
        html.append(ReportHtml.head("Riptide: the paper's section 6, redrawn"))
                .append("<h1>Riptide: the paper's section 6, redrawn</h1>\n<p>Seed ").append(seed)
                .append(". Each section: the paper's figure as we measured it, the paper's finding, our target and the verdict. ")
                .append("Raw figures: each scenario's <code>result.json</code> and CSV files.</p>\n<table><tr><th>figure</th><th>scenario</th><th>verdict</th></tr>\n");
        int met = 0;
        StringBuilder sections = new StringBuilder();
        for (PaperFigure f : figures) {
            Path base = nested ? outDir.resolve(f.scenario()) : outDir;
            String prefix = nested ? f.scenario() + "/" : "";
            Path result = base.resolve("result.json");
            JsonNode r = Files.exists(result) ? json.readTree(Files.readAllBytes(result)) : null;
            boolean ok = r != null && r.path("target_met").asBoolean(false);
            met += ok ? 1 : 0;
            String verdict = r == null ? "not run" : ok ? "target met" : "target missed";
            html.append("<tr><td><a href=\"#").append(f.scenario()).append("\">").append(esc(f.figure())).append("</a></td><td><code>")
                    .append(f.scenario()).append("</code></td><td class=\"").append(ok ? "met" : "missed").append("\">")
                    .append(verdict).append("</td></tr>\n");
            sections.append("<section id=\"").append(f.scenario()).append("\"><h2>").append(esc(f.figure())).append(": ")
                    .append(esc(f.measured())).append("</h2>\n<table><tr><th>paper</th><td>").append(esc(f.paperResult()))
                    .append("</td></tr><tr><th>our target</th><td>").append(esc(f.target())).append("</td></tr>")
                    .append("<tr><th>verdict</th><td class=\"").append(ok ? "met" : "missed").append("\">").append(verdict)
                    .append("</td></tr>");
            if (r != null) {
                for (String field : f.fields()) {
                    if (r.has(field)) {
                        sections.append("<tr><th><code>").append(field).append("</code></th><td>").append(esc(r.get(field).toString()))
                                .append("</td></tr>");
                    }
                }
            }
            sections.append("</table>\n");
            for (String chart : f.charts()) {
                if (Files.exists(base.resolve(chart))) {
                    sections.append("<p><img src=\"").append(prefix).append(chart).append("\" alt=\"")
                            .append(esc(f.figure() + " " + chart)).append("\"></p>\n");
                }
            }
            sections.append("<p><a href=\"").append(prefix).append("result.json\">result.json</a></p></section>\n");
        }
        html.append("</table>\n<p>").append(met).append(" of ").append(figures.size()).append(" targets met.</p>\n")
                .append(sections).append("</body></html>\n");
        Files.writeString(outDir.resolve("report.html"), html.toString(), StandardCharsets.UTF_8);
        return met;
    }

    private static String esc(String s) {
        return ReportHtml.esc(s);
    }
}
