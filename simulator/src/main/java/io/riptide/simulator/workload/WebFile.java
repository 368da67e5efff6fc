package io.riptide.simulator.workload;

/** One document of a synthetic web site: its URL, its size, and whether a shared cache may keep it. */
public record WebFile(String url, int sizeBytes, boolean cacheable) {
    public WebFile {
        if (sizeBytes < 0) {
            throw new IllegalArgumentException("negative size " + sizeBytes);
        }
    }
}
