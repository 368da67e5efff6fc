package io.riptide.dolr.bloom;

import io.riptide.core.wire.MessageCodec;
import io.riptide.core.wire.WireException;
import io.riptide.core.wire.WireMessage;
import java.util.ArrayList;
import java.util.List;

/** The messages that exchange attenuated Bloom filters between local-area neighbours. */
public final class BloomMessages {
    /** Most filter levels an advertisement may carry. */
    public static final int MAX_LEVELS = 8;
    /** Most 64-bit words per level (64 Kbit). */
    public static final int MAX_WORDS = 1024;

    private BloomMessages() {
    }

    /**
     * Asks a neighbour for its advertisement. {@code adopt}: few peers pull the sender's own, so its
     * holdings are invisible to the area; it asks the neighbour to link to it in turn.
     */
    public record BloomPull(boolean adopt) implements WireMessage {
    }

    /**
     * A node's view of what lies at each distance from it: level 0 its own replicas, level 1 those of
     * its local neighbours, and so on. {@code words} holds each level's bit words. {@code pushed}: sent
     * unasked because the view gained objects (a receiver whose own view gains passes it on), rather
     * than in answer to a pull.
     */
    public record BloomAd(int hashes, List<long[]> words, boolean pushed) implements WireMessage {
    }

    /** Registers these messages in {@code codec} (tags 50–59). */
    public static void register(MessageCodec codec) {
        codec.register(50, BloomPull.class, (m, out) -> out.bool(m.adopt()), in -> new BloomPull(in.bool()));
        codec.register(51, BloomAd.class,
                (m, out) -> {
                    out.u8(m.hashes()).u8(m.words().size()).u8(m.pushed() ? 1 : 0);
                    for (long[] level : m.words()) {
                        out.u16(level.length);
                        for (long w : level) {
                            out.i64(w);
                        }
                    }
                },
                in -> {
                    int hashes = in.u8();
                    int count = in.u8();
                    int pushed = in.u8();
                    if (hashes < 1 || hashes > 16 || count > MAX_LEVELS || pushed > 1) {
                        throw new WireException("bad Bloom advertisement: " + hashes + " hashes, " + count + " levels");
                    }
                    List<long[]> levels = new ArrayList<>(count);
                    int size = -1;
                    for (int i = 0; i < count; i++) {
                        int words = in.u16();
                        if (words < 1 || words > MAX_WORDS || (size >= 0 && words != size)) {
                            throw new WireException("bad Bloom level of " + words + " words");
                        }
                        size = words;
                        long[] level = new long[words];
                        for (int w = 0; w < words; w++) {
                            level[w] = in.i64();
                        }
                        levels.add(level);
                    }
                    return new BloomAd(hashes, levels, pushed == 1);
                });
    }
}
