package io.riptide.cli;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict parser of the Prometheus text format 0.0.4, for tests: HELP and TYPE lines, metric and
 * label name syntax, escaped label values, float values, every family's TYPE before its samples and
 * its samples together, and no series twice. Any violation throws with the line number.
 */
final class PrometheusTextParser {
    private static final String NAME = "[a-zA-Z_:][a-zA-Z0-9_:]*";
    private static final Pattern HELP = Pattern.compile("# HELP (" + NAME + ") (.*)");
    private static final Pattern TYPE = Pattern.compile("# TYPE (" + NAME + ") (counter|gauge|summary|histogram|untyped)");
    private static final Pattern SAMPLE = Pattern.compile("(" + NAME + ")(\\{(.*)})? (\\S+)( -?[0-9]+)?");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\\\n]|\\\\[\\\\\"n])*)\"(,|$)");
    private static final Pattern FLOAT = Pattern.compile("[+-]?(Inf|NaN|([0-9]+(\\.[0-9]*)?|\\.[0-9]+)([eE][+-]?[0-9]+)?)");

    private PrometheusTextParser() {
    }

    /** The series in {@code text}, each as {@code name{label="value",...}} (labels sorted) mapped to its value. */
    static Map<String, Double> parse(String text) {
        if (!text.isEmpty() && !text.endsWith("\n")) {
            throw new IllegalArgumentException("the exposition must end with a newline");
        }
        Map<String, String> types = new HashMap<>();
        Set<String> helped = new HashSet<>();
        Set<String> finished = new HashSet<>();
        Map<String, Double> series = new LinkedHashMap<>();
        String current = null;
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length - 1; i++) {
            String line = lines[i];
            String where = "line " + (i + 1) + " '" + line + "': ";
            Matcher m;
            if ((m = HELP.matcher(line)).matches()) {
                if (!helped.add(m.group(1))) {
                    throw new IllegalArgumentException(where + "second HELP for " + m.group(1));
                }
                current = family(m.group(1), current, finished, where);
            } else if ((m = TYPE.matcher(line)).matches()) {
                if (types.containsKey(m.group(1))) {
                    throw new IllegalArgumentException(where + "second TYPE for " + m.group(1));
                }
                types.put(m.group(1), m.group(2));
                current = family(m.group(1), current, finished, where);
            } else if ((m = SAMPLE.matcher(line)).matches()) {
                String name = m.group(1);
                String family = familyOf(name, types);
                if (family == null) {
                    throw new IllegalArgumentException(where + "sample before its family's TYPE line");
                }
                current = family(family, current, finished, where);
                Map<String, String> labels = labels(m.group(3) == null ? "" : m.group(3), where);
                if (!FLOAT.matcher(m.group(4)).matches()) {
                    throw new IllegalArgumentException(where + "not a float: " + m.group(4));
                }
                double value = Double.parseDouble(m.group(4).replace("Inf", "Infinity"));
                String type = types.get(family);
                if (type.equals("counter") && (!name.endsWith("_total") || value < 0 || Double.isNaN(value))) {
                    throw new IllegalArgumentException(where + "a counter is named *_total and never negative");
                }
                if (type.equals("summary") && name.equals(family)) {
                    String q = labels.get("quantile");
                    if (q == null || Double.parseDouble(q) < 0 || Double.parseDouble(q) > 1) {
                        throw new IllegalArgumentException(where + "a summary's sample needs a quantile in [0, 1]");
                    }
                }
                StringBuilder key = new StringBuilder(name);
                if (!labels.isEmpty()) {
                    key.append('{');
                    new TreeMap<>(labels).forEach((k, v) -> key.append(key.charAt(key.length() - 1) == '{' ? "" : ",")
                            .append(k).append("=\"").append(v).append('"'));
                    key.append('}');
                }
                if (series.put(key.toString(), value) != null) {
                    throw new IllegalArgumentException(where + "duplicate series " + key);
                }
            } else {
                throw new IllegalArgumentException(where + "neither a HELP, a TYPE nor a sample line");
            }
        }
        return series;
    }

    /** Moves to {@code family}; a family whose lines ended may not start again. */
    private static String family(String family, String current, Set<String> finished, String where) {
        if (family.equals(current)) {
            return current;
        }
        if (current != null) {
            finished.add(current);
        }
        if (finished.contains(family)) {
            throw new IllegalArgumentException(where + "lines of " + family + " are not together");
        }
        return family;
    }

    private static String familyOf(String name, Map<String, String> types) {
        if (types.containsKey(name)) {
            return name;
        }
        for (String suffix : new String[] {"_sum", "_count", "_bucket"}) {
            if (name.endsWith(suffix)) {
                String base = name.substring(0, name.length() - suffix.length());
                String type = types.get(base);
                if ("summary".equals(type) || "histogram".equals(type)) {
                    return base;
                }
            }
        }
        return null;
    }

    private static Map<String, String> labels(String text, String where) {
        Map<String, String> labels = new LinkedHashMap<>();
        Matcher m = LABEL.matcher(text);
        int at = 0;
        while (at < text.length()) {
            if (!m.find(at) || m.start() != at) {
                throw new IllegalArgumentException(where + "bad label syntax at '" + text.substring(at) + "'");
            }
            if (labels.put(m.group(1), m.group(2)) != null) {
                throw new IllegalArgumentException(where + "label " + m.group(1) + " twice");
            }
            at = m.end();
        }
        return labels;
    }
}
