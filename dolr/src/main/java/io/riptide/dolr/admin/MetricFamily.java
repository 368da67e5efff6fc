package io.riptide.dolr.admin;

import java.util.List;

/**
 * One Prometheus metric: its name, help text, type and samples.
 *
 * @param name the family's name, e.g. {@code riptide_transport_messages_sent_total}
 * @param help one line saying what it counts
 * @param type how Prometheus should treat its samples
 * @param samples its values; a summary's include the {@code _sum} and {@code _count} samples
 */
public record MetricFamily(String name, String help, Type type, List<Sample> samples) {
    /** The metric types this project exposes. */
    public enum Type {
        COUNTER, GAUGE, SUMMARY;

        /** The name the text format's TYPE line uses. */
        public String textName() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** One label of a sample. */
    public record Label(String name, String value) {
    }

    /**
     * One value of a family.
     *
     * @param name the sample's name: the family's, or the family's with {@code _sum} or {@code _count}
     */
    public record Sample(String name, List<Label> labels, double value) {
        public Sample {
            labels = List.copyOf(labels);
        }
    }

    public MetricFamily {
        samples = List.copyOf(samples);
    }
}
