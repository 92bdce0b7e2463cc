package dev.detour.core.selection;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** S-6 / P-12: where an agent's conversation id is read, in order. */
class SessionIdsTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // Claude Code before v2.1.78: user_<hash>_account_<uuid or empty>_session_<uuid>
            "user_0a1b2c3d4e5f_account__session_57a121ec-f78c-48c3-a745-e3036a3ecc33"
                    + "|57a121ec-f78c-48c3-a745-e3036a3ecc33",
            "user_0a1b_account_4f1c7f2e-0000-4000-8000-000000000001_session_9d3c-1"
                    + "|9d3c-1",
            // since v2.1.78: a JSON string
            "{\"device_id\":\"d1\",\"account_uuid\":\"\",\"session_id\":\"54c1eb09-bc4c-4d2f-98eb-6d2ab2d5e2fe\"}"
                    + "|54c1eb09-bc4c-4d2f-98eb-6d2ab2d5e2fe",
            "{ \"session_id\" : \"s-2\" }|s-2",
    })
    void findsTheSessionInsideClaudeCodesUserId(String userId, String session) {
        assertEquals(session, SessionIds.fromUserId(userId));
    }

    @ParameterizedTest
    @ValueSource(strings = {"alice", "user_abc", "user_abc_account__session_", "{\"device_id\":\"d\"}",
            "{\"session_id\":\"\"}", "team_session_x"})
    void aUserIdWithoutASessionYieldsNone(String userId) {
        assertNull(SessionIds.fromUserId(userId));
    }

    @Test
    void theClaudeCodeHeaderThenSessionDashThenSessionUnderscoreThenTheBody() {
        Map<String, String> all = Map.of("x-claude-code-session-id", "cc", "session-id", "dash", "session_id", "under");
        assertEquals("cc", SessionIds.resolve(all::get, "body"));
        assertEquals("dash", SessionIds.resolve(Map.of("session-id", "dash", "session_id", "under")::get, "body"));
        assertEquals("under", SessionIds.resolve(Map.of("session_id", " under ")::get, "body"));
        assertEquals("body", SessionIds.resolve(Map.of("x-claude-code-session-id", "  ")::get, "body"),
                "a blank header names nothing");
        assertNull(SessionIds.resolve(Map.<String, String>of()::get, null));
    }
}
