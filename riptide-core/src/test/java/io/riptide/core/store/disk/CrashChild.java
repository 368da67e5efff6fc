package io.riptide.core.store.disk;

import io.riptide.core.id.Id;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;

/**
 * A process for {@link DiskTierCrashTest} to kill: opens a tier and inserts {@code crash-<round>-<i>}
 * in a loop, printing {@code flushed N} after each completed flush (all of the first N are durable).
 * Stops by itself after {@link #MAX_INSERTS}; the test kills it with SIGKILL long before.
 */
public final class CrashChild {
    static final int MAX_INSERTS = 200_000;
    static final int FLUSH_EVERY = 1000;

    private CrashChild() {
    }

    static DiskTierConfig config(Path dir, DiskPolicy policy) {
        DiskTierConfig c = policy == DiskPolicy.LOG ? DiskTierConfig.log(dir.resolve("crash.log"), 1 << 20, 256L << 20)
                : DiskTierConfig.setMem(dir.resolve("crash.tab"), 1 << 20, 512);
        // Small buffers, a quick flush timer and frequent checkpoints, so a kill lands among them all.
        return c.withBufferBytes(64 << 10).withFlushInterval(Duration.ofMillis(10)).withCheckpointInterval(Duration.ofMillis(200));
    }

    static Id key(int round, int i) {
        return Id.hash("crash-" + round + "-" + i);
    }

    static byte[] value(int round, int i) {
        Random r = new Random(round * 1_000_003L + i);
        byte[] v = new byte[16 + r.nextInt(400)];
        r.nextBytes(v);
        return v;
    }

    public static void main(String[] args) {
        Path dir = Path.of(args[0]);
        DiskPolicy policy = DiskPolicy.valueOf(args[1]);
        int round = Integer.parseInt(args[2]);
        DiskTier tier = DiskTier.open(config(dir, policy), k -> { });
        System.out.println("opened " + tier.records());
        System.out.flush();
        for (int i = 0; i < MAX_INSERTS; i++) {
            tier.put(key(round, i), value(round, i));
            if ((i + 1) % FLUSH_EVERY == 0) {
                tier.flush();
                System.out.println("flushed " + (i + 1));
                System.out.flush();
            }
        }
        tier.close();
        System.out.println("done");
    }
}
