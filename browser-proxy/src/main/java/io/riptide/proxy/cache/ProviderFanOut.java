package io.riptide.proxy.cache;

import io.riptide.core.crypto.PublicKey;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * One lookup under every trusted provider at once: each provider names the URL by its own GUID, the
 * reads run in parallel within the one deadline, and the first verified copy usable for the request
 * wins. With none, an {@code only-if-cached} 504 if some copy needed validating, else the primary's
 * result, which says why it missed. Runs on the cache's loop.
 */
final class ProviderFanOut {
    private ProviderFanOut() {
    }

    /**
     * Runs {@code lookupUnder} for each of {@code providers} (primary first) and hands {@code done}
     * the winner, once.
     */
    static void first(List<PublicKey> providers, BiConsumer<PublicKey, Consumer<LookupResult>> lookupUnder,
                      Consumer<LookupResult> done) {
        if (providers.size() == 1) {
            lookupUnder.accept(providers.get(0), done);
            return;
        }
        LookupResult[] each = new LookupResult[providers.size()];
        int[] left = {providers.size()};
        boolean[] decided = {false};
        for (int i = 0; i < providers.size(); i++) {
            int slot = i;
            lookupUnder.accept(providers.get(i), r -> {
                each[slot] = r;
                left[0]--;
                if (decided[0]) {
                    r.release(); // a later provider's answer: the winner is out already
                    return;
                }
                if (r.foundCopy()) {
                    decided[0] = true;
                    done.accept(r);
                } else if (left[0] == 0) {
                    decided[0] = true;
                    done.accept(noCopy(each));
                }
            });
        }
    }

    private static LookupResult noCopy(LookupResult[] each) {
        LookupResult chosen = each[0];
        for (LookupResult r : each) {
            if (r.served()) {
                chosen = r; // an only-if-cached 504: some provider's copy would have needed validating
                break;
            }
        }
        for (LookupResult r : each) {
            if (r != chosen) {
                r.release();
            }
        }
        return chosen;
    }
}
