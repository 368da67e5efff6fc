package io.riptide.dolr.secure;

import io.riptide.core.id.Id;
import io.riptide.core.runtime.Cancellable;
import io.riptide.core.runtime.Env;
import io.riptide.core.runtime.NodeHandle;
import io.riptide.dolr.location.LocateResult;
import io.riptide.dolr.location.Location;
import io.riptide.dolr.location.LocationMessages.FailureReason;
import io.riptide.dolr.location.LocationMessages.ReadReplica;
import io.riptide.dolr.location.SaltedRoots;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Reads verified by the caller and redundant when they have to be. The plain read goes first (the
 * nearest pointer's replica, Bloom filters included), so an honest overlay pays nothing more for
 * most reads. When it fails, answers bytes the caller's check refuses, or is still unanswered at
 * twice this node's usual locate time, the read widens: {@link #WIDTH} attempts at once by routes
 * that share as little as they can with those tried (toward the GUID's salted roots, where
 * publishers also leave pointers, then toward the GUID's own root through first hops not used
 * yet), avoiding nodes that have answered forged bytes. At most {@link #ROUNDS} widenings. The
 * first answer that passes the check ends the read; no unverified byte is ever handed on.
 *
 * <p>Why not every attempt at once: with honest peers the plain read almost always answers, and a
 * second body on every read doubles the traffic on the slow uplinks (hedging whole-body reads cost the
 * overloaded PolyMix replay a fifth of its hits). Why widen on lateness too: a hostile hop that
 * acknowledges and drops is seen by nothing else before the deadline.
 */
public final class RedundantReads {
    /** Attempts started by each widening. */
    public static final int WIDTH = 3;
    /** Widenings a read may make after its plain attempt. */
    public static final int ROUNDS = 4;
    /** Listed holders a read reads directly, at most (a list may name many false holders). */
    static final int MAX_DIRECT_READS = 16;
    /** Nodes remembered as having answered forged bytes (oldest forgotten first). */
    static final int MAX_DISTRUSTED = 1024;

    private final Env env;
    private final Location location;
    private final Duration deadline;
    // Nodes that answered bytes failing verification: never a first hop of a later attempt.
    private final Map<Id, Boolean> distrusted = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Id, Boolean> eldest) {
            return size() > MAX_DISTRUSTED;
        }
    };
    private long reads;
    private long succeeded;
    private long widened;
    private long extraAttempts;
    private long listings;
    private long directReads;
    private long refused;

    /** {@code deadline}: the longest a read may take in all, its attempts together. */
    public RedundantReads(Env env, Location location, Duration deadline) {
        this.env = env;
        this.location = location;
        this.deadline = deadline;
    }

    /**
     * Reads {@code guid}: {@code done} hears a result whose bytes passed {@code verify}, or a failure;
     * never bytes that failed it.
     */
    public void read(Id guid, int ttl, Predicate<byte[]> verify, Consumer<LocateResult> done) {
        reads++;
        new Attempts(guid, ttl, verify, done).start();
    }

    /** Whether {@code node} has answered a read of this node's with forged bytes. */
    public boolean distrusts(Id node) {
        return distrusted.containsKey(node);
    }

    public RedundantReadStats stats() {
        return new RedundantReadStats(reads, succeeded, widened, extraAttempts, refused, listings, directReads);
    }

    /** One read's attempts. */
    private final class Attempts {
        final Id guid;
        final int ttl;
        final Predicate<byte[]> verify;
        final Consumer<LocateResult> done;
        final long startedAt = env.nowNanos();
        final Set<Id> firstHops = new HashSet<>();
        final Set<Id> listingFirstHops = new HashSet<>();
        final Set<Id> holdersRead = new HashSet<>();
        int outstanding;
        int rounds;
        int nextSalt = 1;
        boolean ended;
        FailureReason lastFailure = FailureReason.NOT_FOUND;
        int lastHops;
        Cancellable lateTimer = () -> { };
        Cancellable endTimer = () -> { };

        Attempts(Id guid, int ttl, Predicate<byte[]> verify, Consumer<LocateResult> done) {
            this.guid = guid;
            this.ttl = ttl;
            this.verify = verify;
            this.done = done;
        }

        void start() {
            outstanding++;
            endTimer = env.schedule(deadline, () -> end(null, FailureReason.TIMEOUT));
            armLateTimer();
            location.locate(guid, new ReadReplica(), ttl, true, this::answered);
        }

        private void armLateTimer() {
            lateTimer.cancel();
            lateTimer = env.schedule(location.hedgeDelay().multipliedBy(2), this::widen);
        }

        void answered(LocateResult result) {
            if (ended) {
                return;
            }
            outstanding--;
            if (result.found() && result.data() != null) {
                if (verify.test(result.data())) {
                    succeeded++;
                    end(new LocateResult(guid, result.replica(), null, result.hops(), env.nowNanos() - startedAt, result.data()), null);
                    return;
                }
                refused++;
                distrusted.put(result.replica().id(), Boolean.TRUE);
            } else if (result.failure() != null) {
                lastFailure = result.failure();
            }
            lastHops = result.hops();
            if (!widen() && outstanding == 0) {
                end(null, lastFailure);
            }
        }

        /** Starts another round of attempts; false when none is left. */
        private boolean widen() {
            if (ended || rounds >= ROUNDS) {
                return false;
            }
            if (rounds == 0) {
                widened++;
            }
            rounds++;
            for (int i = 0; i < WIDTH; i++) {
                Id key = SaltedRoots.key(guid, nextKey());
                Set<Id> avoid = new HashSet<>(firstHops);
                avoid.addAll(distrusted.keySet());
                outstanding++;
                extraAttempts++;
                NodeHandle first = location.readVia(guid, key, avoid, ttl, this::answered);
                if (first != null) {
                    firstHops.add(first.id());
                }
            }
            listAtEveryRoot();
            armLateTimer();
            return true;
        }

        /**
         * Asks the GUID's root and each salted root for every holder its pointers name, and reads each
         * holder not yet read directly. A false pointer shadows the true one on a locate's way (a
         * holder follows its nearest pointer), not in a root's list; a list costs no body, so every
         * root is asked at each widening, by first hops not used for a list yet.
         */
        private void listAtEveryRoot() {
            for (int salt = 0; salt <= location.saltedRoots(); salt++) {
                Set<Id> avoid = new HashSet<>(listingFirstHops);
                avoid.addAll(distrusted.keySet());
                outstanding++;
                listings++;
                NodeHandle first = location.listReplicasVia(guid, SaltedRoots.key(guid, salt), avoid, this::listed);
                if (first != null) {
                    listingFirstHops.add(first.id());
                }
            }
        }

        private void listed(Optional<List<NodeHandle>> holders) {
            if (ended) {
                return;
            }
            outstanding--;
            for (NodeHandle holder : holders.orElse(List.of())) {
                if (holdersRead.size() >= MAX_DIRECT_READS) {
                    break;
                }
                if (!distrusted.containsKey(holder.id()) && holdersRead.add(holder.id())) {
                    outstanding++;
                    directReads++;
                    location.readAt(holder, guid, ttl, this::answered);
                }
            }
            if (outstanding == 0 && !widen()) {
                end(null, lastFailure);
            }
        }

        /** The salted roots in turn, then the GUID's own root again (by other first hops). */
        private int nextKey() {
            int salts = location.saltedRoots();
            if (nextSalt > salts) {
                return 0;
            }
            return nextSalt++;
        }

        private void end(LocateResult result, FailureReason failure) {
            if (ended) {
                return;
            }
            ended = true;
            lateTimer.cancel();
            endTimer.cancel();
            done.accept(result != null ? result
                    : new LocateResult(guid, null, failure, lastHops, env.nowNanos() - startedAt, null));
        }
    }
}
