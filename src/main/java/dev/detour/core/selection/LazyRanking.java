package dev.detour.core.selection;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.RandomAccess;

/**
 * N-10: a plan's candidates, ranked piece by piece as they are read. The attempt loop reads the first
 * few; the failover tail is ranked only if the loop gets that far (or when an explanation or preview
 * lists every candidate). The size is known from the start (every eligible route once), so
 * {@code size()} and {@link #route} rank nothing. The first piece is ranked at once, so a plan's draws
 * happen when it is made, as before. Unmodifiable; not thread-safe: a plan belongs to one request.
 */
final class LazyRanking extends AbstractList<Candidate> implements RandomAccess {
    /** Appends the next ranked piece (at least one candidate) to {@code out}. */
    interface Pieces {
        void next(List<Candidate> out);
    }

    /** The ranking itself, shared by a view that lifts one candidate to the front. */
    private static final class Source {
        private final List<Route> eligible;
        private final Pieces pieces;
        private final List<Candidate> ranked;

        Source(List<Route> eligible, Pieces pieces) {
            this.eligible = eligible;
            this.pieces = pieces;
            this.ranked = new ArrayList<>(Math.min(eligible.size(), 16));
        }

        Candidate at(int index) {
            while (ranked.size() <= index) {
                int before = ranked.size();
                pieces.next(ranked);
                if (ranked.size() == before) {
                    throw new IllegalStateException("a ranking piece added no candidate");
                }
            }
            return ranked.get(index);
        }
    }

    private final Source source;
    /** S-6: the bound account's candidate, lifted to the front; null when nothing is lifted. */
    private final Candidate first;
    /** Where {@code first}'s account sits in the ranking, -1 while not met; ranked places below are scanned. */
    private int liftedAt = -1;
    private int scanned;

    private LazyRanking(Source source, Candidate first) {
        this.source = source;
        this.first = first;
    }

    static LazyRanking of(List<Route> eligible, Pieces pieces) {
        LazyRanking ranking = new LazyRanking(new Source(eligible, pieces), null);
        if (!eligible.isEmpty()) {
            ranking.source.at(0);
        }
        return ranking;
    }

    /** The eligible route of an account, or null when it is not among them; ranks nothing. */
    Route route(long accountId) {
        for (Route route : source.eligible) {
            if (route.account().id() == accountId) {
                return route;
            }
        }
        return null;
    }

    /** The same ranking with {@code lifted}'s account moved to the front as {@code lifted} (S-6 / S-8). */
    LazyRanking withFirst(Candidate lifted) {
        return new LazyRanking(source, lifted);
    }

    @Override
    public Candidate get(int index) {
        Objects.checkIndex(index, size());
        if (first == null) {
            return source.at(index);
        }
        if (index == 0) {
            return first;
        }
        // below the lifted account's old place everything moves down one; past it, places are as ranked
        int below = index - 1;
        return source.at(liftedWithin(below) ? index : below);
    }

    /** Whether the lifted account is among ranked places 0 … {@code last}. */
    private boolean liftedWithin(int last) {
        while (liftedAt < 0 && scanned <= last) {
            if (source.at(scanned).accountId() == first.accountId()) {
                liftedAt = scanned;
            }
            scanned++;
        }
        return liftedAt >= 0 && liftedAt <= last;
    }

    @Override
    public int size() {
        return source.eligible.size();
    }

    /** How many candidates have been ranked so far (tests: the tail stays unranked until read). */
    int rankedSoFar() {
        return source.ranked.size();
    }
}
