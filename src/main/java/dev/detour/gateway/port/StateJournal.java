package dev.detour.gateway.port;

import java.util.List;

/**
 * D-1: the local record of state changes not yet in the database. A change is appended before the
 * request that caused it is answered, so a process killed during a database outage loses no
 * cooldown; once every queued change is durable the record is emptied.
 */
public interface StateJournal extends AutoCloseable {
    /** Keeps one change (a failure to keep it is logged by the implementation, never thrown). */
    void append(PendingState change);

    /** Every change appended so far is durable: forget them. */
    void clear();

    /** What an earlier run appended and never saw durable, oldest first (read once, at start-up). */
    List<PendingState> leftovers();

    /** At shutdown, after the last write try: what is left stays for the next run. */
    @Override
    default void close() {
    }

    /** For tests of the state rules that do not restart: keeps nothing. */
    StateJournal NONE = new StateJournal() {
        @Override
        public void append(PendingState change) {
        }

        @Override
        public void clear() {
        }

        @Override
        public List<PendingState> leftovers() {
            return List.of();
        }
    };
}
