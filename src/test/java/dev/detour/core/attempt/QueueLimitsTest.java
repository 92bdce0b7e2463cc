package dev.detour.core.attempt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.detour.core.attempt.QueueLimits.Admission;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** L-2: who waits, who is refused at once, and until when. */
class QueueLimitsTest {
    @ParameterizedTest(name = "wait {0} s, length {1}, {2} waiting → {3}")
    @CsvSource({
        "30, 100,   0, WAIT",
        "30, 100,  99, WAIT",
        "30, 100, 100, FULL",
        "30,   1,   1, FULL",
        " 0, 100,   0, OFF",
        "30,   0,   0, OFF",
    })
    void aRequestWaitsWhileItsModelsQueueHasRoomAndAQueueOfZeroIsNone(long wait, long length, int waiting,
            Admission expected) {
        assertEquals(expected, QueueLimits.of(wait, length).admit(waiting));
    }

    @Test
    void theDeadlineIsTheWaitBoundAfterTheStart() {
        Instant start = Instant.parse("2026-12-01T10:00:00Z");
        assertEquals(start.plusSeconds(30), QueueLimits.of(30, 100).deadline(start));
    }

    @Test
    void noQueueRefusesEveryone() {
        assertEquals(Admission.OFF, QueueLimits.NONE.admit(0));
    }

    @Test
    void negativeBoundsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new QueueLimits(Duration.ofSeconds(-1), 1));
        assertThrows(IllegalArgumentException.class, () -> new QueueLimits(Duration.ZERO, -1));
    }
}
