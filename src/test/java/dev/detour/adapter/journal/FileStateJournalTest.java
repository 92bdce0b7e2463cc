package dev.detour.adapter.journal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.failure.Failure;
import dev.detour.core.failure.FailureClass;
import dev.detour.core.failure.FailureKind;
import dev.detour.core.failure.Scope;
import dev.detour.gateway.port.PendingState;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileStateJournalTest {
    private static final Instant AT = Instant.parse("2026-12-01T17:45:12.345Z");

    @TempDir
    Path slot;

    static Failure rateLimited() {
        return new Failure(FailureClass.TRANSIENT, FailureKind.UPSTREAM_STATUS, Scope.MODEL, "gpt-x", 429,
                "rate_limit_exceeded", "rate_limit_error", "slow down", "{\"error\":{\"message\":\"slow down\"}}",
                "fp-1", false, true, false, false, false, AT.plusSeconds(3600), Duration.ofSeconds(3600));
    }

    static Failure bare() {
        return new Failure(FailureClass.PERMANENT, FailureKind.TRANSPORT, Scope.ACCOUNT, null, null, null, null,
                null, null, null, false, false, true, false, false, null, null);
    }

    @Test
    void everyKindOfChangeComesBackAsItWasAppendedInOrderAfterARestart() {
        List<PendingState> changes = List.of(
                new PendingState.FailureSeen("w-1", 7, "gpt-x", rateLimited(), AT),
                new PendingState.FailureSeen("w-2", 8, null, bare(), AT.plusMillis(1)),
                new PendingState.SuccessSeen("w-3", 7, "gpt-x", AT.plusSeconds(2)),
                new PendingState.SuccessSeen("w-4", 9, null, AT.plusSeconds(3)),
                new PendingState.GroupHalt(3, AT.plusSeconds(60), 5, "5 failed requests in a row", AT.plusSeconds(4)),
                new PendingState.GroupHalt(3, null, 0, null, AT.plusSeconds(5)));
        FileStateJournal journal = FileStateJournal.open(slot);
        changes.forEach(journal::append);
        journal.close(); // as a killed process leaves it: nothing was cleared

        assertEquals(changes, FileStateJournal.open(slot).leftovers());
    }

    @Test
    void onceEverythingIsDurableTheNextRunFindsNothing() {
        FileStateJournal journal = FileStateJournal.open(slot);
        journal.append(new PendingState.SuccessSeen("w-1", 7, "gpt-x", AT));
        journal.clear();
        journal.append(new PendingState.SuccessSeen("w-2", 7, "gpt-x", AT));
        journal.clear();
        journal.close();

        assertEquals(List.of(), FileStateJournal.open(slot).leftovers());
    }

    @Test
    void aLineCutShortByACrashEndsTheReadingAndTheWholeLinesBeforeItAreReplayed() throws IOException {
        FileStateJournal journal = FileStateJournal.open(slot);
        PendingState whole = new PendingState.FailureSeen("w-1", 7, "gpt-x", rateLimited(), AT);
        journal.append(whole);
        journal.close();
        Files.writeString(slot.resolve(FileStateJournal.FILE), "{\"type\":\"failure\",\"id\":\"w-2\",\"acc",
                StandardCharsets.UTF_8, StandardOpenOption.APPEND);

        assertEquals(List.of(whole), FileStateJournal.open(slot).leftovers());
    }

    @Test
    void anInterruptedThreadStillAppendsAndKeepsItsInterrupt() {
        FileStateJournal journal = FileStateJournal.open(slot);
        PendingState first = new PendingState.SuccessSeen("w-1", 7, "gpt-x", AT);
        PendingState second = new PendingState.SuccessSeen("w-2", 7, "gpt-x", AT);
        Thread.currentThread().interrupt(); // a request thread Jetty interrupts as it stops
        try {
            journal.append(first);
        } finally {
            assertTrue(Thread.interrupted(), "the caller still sees its interrupt");
        }
        journal.append(second);
        journal.close();

        assertEquals(List.of(first, second), FileStateJournal.open(slot).leftovers());
    }

    @Test
    void leftoversStayInTheFileUntilTheyAreDurableAgain() {
        FileStateJournal first = FileStateJournal.open(slot);
        PendingState change = new PendingState.SuccessSeen("w-1", 7, "gpt-x", AT);
        first.append(change);
        first.close();
        FileStateJournal second = FileStateJournal.open(slot); // crashed again before replaying anything
        second.close();

        assertEquals(List.of(change), FileStateJournal.open(slot).leftovers());
    }
}
