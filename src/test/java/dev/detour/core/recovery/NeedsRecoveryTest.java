package dev.detour.core.recovery;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.detour.core.account.AccountStatus;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** R-3 needs-recovery: revoked never; anything not ok, any window, any non-paused model row. */
class NeedsRecoveryTest {
    private static final Instant T = Instant.parse("2026-08-11T10:00:00Z");

    @ParameterizedTest(name = "{5}")
    @CsvSource(delimiter = '|', textBlock = """
            revoked | true  | true  | true  | false | revoked never, whatever it carries
            revoked | false | false | false | false | revoked clean never
            ok      | false | false | false | false | a clean ok account does not
            ok      | true  | true  | false | true  | ok with a cooldown does
            ok      | true  | false | false | true  | ok with only next_retry_at does
            ok      | false | true  | false | true  | ok with only cooldown_until does
            ok      | false | false | true  | true  | ok with a non-paused model row does
            ok      | false | false | false | false | ok with only a paused model row does not (EXISTS ignores paused rows)
            error   | false | false | false | true  | error does
            warning | false | false | false | true  | warning does
            paused  | false | false | false | true  | paused does (the scheduler then leaves it to a person)
            """)
    void decidesFromStatusWindowsAndTheExistsColumn(String status, boolean nextRetry, boolean cooldown,
            boolean nonPausedRow, boolean expected, String what) {
        assertEquals(expected, NeedsRecovery.test(AccountStatus.fromWire(status), nextRetry ? T : null,
                cooldown ? T : null, nonPausedRow), what);
    }
}
