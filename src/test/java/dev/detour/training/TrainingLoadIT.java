package dev.detour.training;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.TestApp;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * N-6: the AOT cache holds only what the training run walked, so the run must reach the second wave's paths
 * too — bridged requests both ways (a bridged stream among them), a key whose limits are counted on every
 * request, and a limit's refusal — besides native Chat and Messages. Runs the training mix against a real App.
 */
class TrainingLoadIT {
    private Gateway gw;

    @BeforeEach
    void start() {
        gw = Gateway.start();
    }

    @AfterEach
    void stop() {
        gw.close();
    }

    @Test
    void theTrainingRunWalksBridgedRequestsBothWaysAndAKeysLimitsBesideTheNativePaths() throws Exception {
        TrainingLoad.Result result = TrainingLoad.train(gw.base(), TestApp.ADMIN_TOKEN, 100, Duration.ofSeconds(120));

        assertTrue(result.answered() > 50, "answered " + result.answered() + ", failed " + result.failed());
        Gateway.await(() -> logged("messages", "chat_completions", null), "a Messages request bridged to Chat");
        Gateway.await(() -> logged("chat_completions", "messages", null), "a Chat request bridged to Messages");
        Gateway.await(() -> logged(null, null, "key.rate_limited"), "a request refused by the key's limit");
        Gateway.await(() -> logged(null, null, "success"), "native successes");
    }

    /** Whether the request log holds an event with an attempt bridged from → to, or with that outcome/code. */
    private boolean logged(String from, String to, String codeOrOutcome) {
        for (JsonNode event : gw.admin("GET", "/requests?limit=200", null).path("items")) {
            if (codeOrOutcome != null && (codeOrOutcome.equals(event.path("error_code").asText())
                    || codeOrOutcome.equals(event.path("outcome").asText()))) {
                return true;
            }
            for (JsonNode attempt : event.path("attempts")) {
                if (from != null && from.equals(attempt.path("bridged_from").asText())
                        && to.equals(attempt.path("bridged_to").asText())) {
                    return true;
                }
            }
        }
        return false;
    }
}
