package io.riptide.core.testing;

/**
 * A resource leak Netty's detector reported: the type of resource and its access records (where it
 * was created and last touched), empty when the leak was not traced.
 */
public record Leak(String resourceType, String records) {
    @Override
    public String toString() {
        return "LEAK of " + resourceType + (records.isEmpty() ? " (untraced)" : ":" + records);
    }
}
