package dev.detour.adapter.db;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Touches summed per flush; a served model written when new, then at most once per refresh (N-10, C-3). */
class TouchTallyTest {
    private static final Instant T0 = Instant.parse("2026-12-03T12:00:00Z");

    @Test
    void eachFlushSumsTheAccountsTouchesAndTheirLatestTime() {
        TouchTally tally = new TouchTally();
        tally.add(1, true, T0.plusSeconds(2), "m");
        tally.add(1, false, T0.plusSeconds(1), null);
        tally.add(2, true, T0, "m");
        tally.drain();

        assertEquals(List.of(new AccountTouch(1, 1, 1, T0.plusSeconds(2)), new AccountTouch(2, 1, 0, T0)),
                List.copyOf(tally.accounts()));
        tally.clear();
        tally.drain();
        assertEquals(List.of(), List.copyOf(tally.accounts()));
    }

    @Test
    void aServedModelIsWrittenWhenNewThenOnlyOnceARefreshHasPassed() {
        TouchTally tally = new TouchTally();
        assertEquals(List.of(new ServedModel(1, "m", T0)), flush(tally, T0));
        assertEquals(List.of(), flush(tally, T0.plusSeconds(59)), "within a minute of the last write");
        assertEquals(List.of(new ServedModel(1, "m", T0.plusSeconds(60))), flush(tally, T0.plusSeconds(60)));
        assertEquals(List.of(), flush(tally, T0.plusSeconds(61)));

        tally.add(1, true, T0.plusSeconds(62), "other"); // another model of the same account is new
        tally.drain();
        assertEquals(List.of(new ServedModel(1, "other", T0.plusSeconds(62))), List.copyOf(tally.served()));
    }

    @Test
    void aFlushThatKeepsItsSumsOffersTheSameServedModelsAgain() {
        TouchTally tally = new TouchTally();
        tally.add(1, true, T0, "m");
        tally.drain();
        assertEquals(1, tally.served().size());
        // AsyncEventWriter keeps the sums when the flush certainly did not commit: no clear(), offered again
        tally.add(1, true, T0.plusSeconds(1), "m");
        tally.drain();
        assertEquals(List.of(new ServedModel(1, "m", T0.plusSeconds(1))), List.copyOf(tally.served()));
    }

    private static List<ServedModel> flush(TouchTally tally, Instant at) {
        tally.add(1, true, at, "m");
        tally.drain();
        List<ServedModel> due = List.copyOf(tally.served());
        tally.clear();
        return due;
    }
}
