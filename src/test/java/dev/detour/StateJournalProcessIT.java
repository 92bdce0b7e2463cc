package dev.detour;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.testkit.DetourProcess;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.fake.Reply;
import dev.detour.testkit.TestApp;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * D-1 with a real {@code kill -9}: a failure applied in memory while MariaDB does not answer (its
 * mariadbd frozen with SIGSTOP) is kept in the local state journal before its client is answered, so
 * the process killed before the database came back loses no cooldown: the next run writes it.
 */
class StateJournalProcessIT {
    private static final String MODEL = "gpt-state";
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void aCooldownAppliedDuringADatabaseFreezeSurvivesKillNineAndIsWrittenByTheNextRun() throws Exception {
        try (FakeUpstream upstream = FakeUpstream.start()) {
            upstream.handler(r -> Reply.chatCompletion());
            DetourProcess detour = DetourProcess.start("it-state-kill9", Map.of());
            DetourProcess restarted = null;
            try {
                String key = pool(detour, upstream);
                long account = detour.number("SELECT MIN(id) FROM accounts");
                assertEquals(0, cooled(detour, account), "healthy before");

                detour.signalDatabase("STOP");
                // an hour's window the upstream states: still cooling when the next run checks
                upstream.handler(r -> Reply.openAiError(429, "slow down", "rate_limit_exceeded")
                        .header("Retry-After", "3600"));
                int calls = upstream.requestCount();
                HttpResponse<String> limited = http.send(chat(detour, key), HttpResponse.BodyHandlers.ofString());
                assertEquals(429, limited.statusCode(), "answered while the database is frozen: " + limited.body());
                HttpResponse<String> honoured = http.send(chat(detour, key), HttpResponse.BodyHandlers.ofString());
                assertEquals(calls + 1, upstream.requestCount(), "this instance honours the cooldown at once: "
                        + honoured.statusCode() + " " + honoured.body());

                detour.sigkill(); // the frozen mariadbd goes with it, as systemd kills the whole service
                assertNotEquals(0, detour.awaitExit(Duration.ofSeconds(30)), "killed, not exited");

                restarted = detour.restart();
                DetourProcess after = restarted;
                Gateway.await(() -> cooled(after, account) == 1, "the journaled cooldown is written after the restart");
                assertTrue(after.lines().stream().anyMatch(l -> l.contains("an earlier run never wrote")),
                        "the replay is logged");
            } finally {
                detour.close();
                if (restarted != null) {
                    restarted.close();
                }
            }
        }
    }

    /** Rows of the account still cooling from the stated window (1 after the 429, 0 before). */
    private static long cooled(DetourProcess detour, long account) {
        try {
            return detour.number("SELECT COUNT(*) FROM account_models WHERE account_id = " + account
                    + " AND last_failure_kind IS NOT NULL AND (cooldown_until > UTC_TIMESTAMP(3) + INTERVAL 30 MINUTE"
                    + " OR rate_limit_reset_at > UTC_TIMESTAMP(3) + INTERVAL 30 MINUTE)");
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private String pool(DetourProcess detour, FakeUpstream upstream) throws Exception {
        admin(detour, "POST", "/groups", "{\"name\":\"default\"}");
        JsonNode account = admin(detour, "POST", "/accounts", "{\"name\":\"a\",\"group\":\"default\",\"platform\":"
                + "\"openai-compatible\",\"base_url\":\"" + upstream.url() + "\",\"api_key\":\"sk-test-state-secret\","
                + "\"failure_policy\":{\"retry_count\":0},"
                + "\"model_mappings\":[{\"from\":\"" + MODEL + "\",\"to\":\"" + MODEL + "\"}]}");
        assertTrue(account.has("id"), account.toString());
        String key = admin(detour, "POST", "/keys", "{\"name\":\"state-key\"}").path("key").asText();
        // the snapshot picks the new pool up within its refresh interval
        Gateway.await(() -> {
            try {
                return http.send(chat(detour, key), HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
            } catch (IOException | InterruptedException e) {
                return false;
            }
        }, "the new account serves");
        return key;
    }

    private static HttpRequest chat(DetourProcess detour, String key) {
        return HttpRequest.newBuilder(URI.create(detour.url() + "/v1/chat/completions"))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(20))
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + MODEL + "\",\"messages\":[{\"role\":"
                        + "\"user\",\"content\":\"hi\"}]}")).build();
    }

    private JsonNode admin(DetourProcess detour, String method, String path, String body) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(detour.url() + "/admin/api" + path))
                .header("Authorization", "Bearer " + TestApp.ADMIN_TOKEN).header("Content-Type", "application/json")
                .method(method, HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(response.statusCode() / 100 == 2, path + ": " + response.statusCode() + " " + response.body());
        return Gateway.read(response.body());
    }
}
