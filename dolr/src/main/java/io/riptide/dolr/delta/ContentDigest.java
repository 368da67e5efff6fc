package io.riptide.dolr.delta;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** SHA-256 of an object's bytes: names a version, so a delta's base and result can be checked. */
public final class ContentDigest {
    /** Length of a digest in bytes. */
    public static final int BYTES = 32;

    private ContentDigest() {
    }

    /** The SHA-256 of {@code data}. */
    public static byte[] of(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
