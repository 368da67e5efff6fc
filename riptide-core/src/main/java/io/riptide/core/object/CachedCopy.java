package io.riptide.core.object;

import java.util.Optional;

/**
 * What a replica holds for one GUID: the signed web object and the newest heartbeat the provider
 * issued for its version, if any. A heartbeat extends the object's freshness without moving the
 * body again, so it travels with the object.
 */
public record CachedCopy(WebObject object, Optional<Heartbeat> heartbeat) {
    /** Format of {@link #toBytes()}. */
    public static final int FORMAT = 1;

    public CachedCopy {
        if (object == null || heartbeat == null) {
            throw new IllegalArgumentException("a cached copy needs an object");
        }
        heartbeat.ifPresent(h -> {
            if (!h.guid().equals(object.certificate().guid()) || h.version() != object.certificate().version()) {
                throw new IllegalArgumentException("heartbeat is for another object or version");
            }
        });
    }

    /** A copy without a heartbeat. */
    public static CachedCopy of(WebObject object) {
        return new CachedCopy(object, Optional.empty());
    }

    /** This copy with {@code newer} as its heartbeat. */
    public CachedCopy withHeartbeat(Heartbeat newer) {
        return new CachedCopy(object, Optional.of(newer));
    }

    /** {@code u8 format | bytes web object | bool has heartbeat | [bytes heartbeat]}. */
    public byte[] toBytes() {
        byte[] obj = object.toBytes();
        return Encoding.write(obj.length + Heartbeat.ENCODED_BYTES + 16, out -> {
            out.u8(FORMAT).bytes(obj).bool(heartbeat.isPresent());
            heartbeat.ifPresent(h -> out.bytes(h.toBytes()));
        });
    }

    /** Reads {@link #toBytes()}; bodies up to {@code maxBodyBytes}. */
    public static CachedCopy fromBytes(byte[] data, int maxBodyBytes) throws ObjectFormatException {
        return Encoding.read(data, "cached copy", in -> {
            Encoding.formatVersion(in, FORMAT, "cached copy");
            byte[] obj = in.bytes(Integer.MAX_VALUE);
            boolean hasHeartbeat = in.bool();
            byte[] hb = hasHeartbeat ? in.bytes(Heartbeat.ENCODED_BYTES) : null;
            WebObject object;
            Heartbeat heartbeat;
            try {
                object = WebObject.fromBytes(obj, maxBodyBytes);
                heartbeat = hb == null ? null : Heartbeat.fromBytes(hb);
            } catch (ObjectFormatException e) {
                throw new io.riptide.core.wire.WireException(e.getMessage());
            }
            return new CachedCopy(object, Optional.ofNullable(heartbeat));
        });
    }
}
