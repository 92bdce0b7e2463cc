package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.App;
import dev.detour.testkit.OneUpstreamCase;
import dev.detour.fake.Reply;
import dev.detour.testkit.Rows;
import dev.detour.testkit.TestApp;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * X-5 over real HTTP: an upstream that echoes the account's key (as real relays do in their error
 * messages) never makes Detour echo it: not in the answer relayed to the key holder, not in MariaDB,
 * not in the admin API, not in a model test's result, not in the log. Upstream headers reach the
 * client through the allow-list.
 */
class SecretEchoIT extends OneUpstreamCase {
    static final String KEY = "sk-test-abcdef0123456789wxyz";
    static final String MASKED = "sk-…wxyz";
    /** A relay key of no recognisable shape: only Detour's knowing it can mask it. */
    static final String PLAIN_KEY = "relay-key-lowercase-only-0123456789";
    static final String PLAIN_MASKED = "rel…6789";
    static final String MODELS = "[{\"from\":\"gpt-x\",\"to\":\"up-x\"}]";
    static final String ECHO = "{\"error\":{\"message\":\"Incorrect API key provided: " + KEY + "\",\"type\":"
            + "\"invalid_request_error\",\"code\":\"invalid_api_key\"}}";

    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    private PrintStream originalErr;

    @BeforeEach
    void captureTheLog() {
        originalErr = System.err; // slf4j-simple writes to whatever System.err is at each line
        System.setErr(new PrintStream(log, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void theLogNeverHoldsAKey() {
        System.setErr(originalErr);
        String lines = log.toString(StandardCharsets.UTF_8);
        assertFalse(lines.contains(KEY) || lines.contains(PLAIN_KEY), lines);
    }

    private long account(String key) {
        return gw.account("echo", upstream, MODELS, "{\"api_key\":\"" + key + "\",\"failure_policy\":"
                + "{\"retry_count\":0}}");
    }

    @Test
    void aClientErrorEchoingTheKeyReachesTheKeyHolderMaskedWithItsNewLength() {
        account(KEY);
        upstream.enqueue(Reply.json(400, "{\"error\":{\"message\":\"Invalid request for key " + KEY
                + "\",\"type\":\"invalid_request_error\"}}"));

        HttpResponse<String> answer = gw.chat("gpt-x");

        assertEquals(400, answer.statusCode(), "a client error is relayed as the upstream's own answer");
        assertFalse(answer.body().contains(KEY), answer.body());
        assertTrue(answer.body().contains("Invalid request for key " + MASKED), answer.body());
        assertEquals(String.valueOf(answer.body().getBytes(StandardCharsets.UTF_8).length),
                answer.headers().firstValue("content-length").orElseThrow(), "the length of the masked body");
        assertFalse(gw.admin("GET", "/requests?limit=10", null).toString().contains(KEY));
    }

    @Test
    void upstreamHeadersReachTheClientOnlyThroughTheAllowList() {
        account(KEY);
        upstream.enqueue(Reply.json(400, "{\"error\":{\"message\":\"bad\",\"type\":\"invalid_request_error\"}}")
                .header("openai-organization", "org-secretorg0123456789")
                .header("openai-project", "proj_secretproject0123")
                .header("anthropic-organization-id", "0b5f8d3e-aaaa-bbbb-cccc-0123456789ab")
                .header("set-cookie", "__cf_bm=abc123; path=/; HttpOnly")
                .header("server", "cloudflare")
                .header("x-internal-route", "relay-7")
                .header("x-request-id", "req_abc123")
                .header("retry-after", "7")
                .header("x-ratelimit-remaining-requests", "99")
                .header("anthropic-ratelimit-tokens-remaining", "1000"));

        HttpResponse<String> answer = gw.chat("gpt-x");

        assertEquals(400, answer.statusCode());
        for (String dropped : List.of("openai-organization", "openai-project", "anthropic-organization-id",
                "set-cookie", "server", "x-internal-route")) {
            assertTrue(answer.headers().firstValue(dropped).isEmpty(), dropped + " must not reach the client");
        }
        assertEquals("req_abc123", answer.headers().firstValue("x-request-id").orElse(null));
        assertEquals("7", answer.headers().firstValue("retry-after").orElse(null));
        assertEquals("99", answer.headers().firstValue("x-ratelimit-remaining-requests").orElse(null));
        assertEquals("1000", answer.headers().firstValue("anthropic-ratelimit-tokens-remaining").orElse(null));
        assertTrue(answer.headers().firstValue("content-type").orElse("").startsWith("application/json"));
    }

    @Test
    void aSuccessfulAnswerKeepsItsAllowedHeadersAndDropsTheOrganisation() {
        account(KEY);
        upstream.enqueue(Reply.chatCompletion().header("openai-organization", "org-secretorg0123456789")
                .header("x-request-id", "req_ok1"));

        HttpResponse<String> answer = gw.chat("gpt-x");

        assertEquals(200, answer.statusCode());
        assertTrue(answer.headers().firstValue("openai-organization").isEmpty());
        assertEquals("req_ok1", answer.headers().firstValue("x-request-id").orElse(null));
    }

    @Test
    void aRejectedKeyEchoedIn401IsStoredAndShownOnlyMasked() {
        long id = account(KEY);
        upstream.enqueue(Reply.json(401, ECHO));

        HttpResponse<String> answer = gw.chat("gpt-x");

        assertEquals(502, answer.statusCode(), "an account failure is never relayed");
        assertFalse(answer.body().contains(KEY));
        String stored = storedFailureText(id);
        assertFalse(stored.contains(KEY), stored);
        assertTrue(stored.contains("Incorrect API key provided: " + MASKED), stored);
        String api = gw.admin("GET", "/accounts/" + id, null).toString();
        assertFalse(api.contains(KEY), api);
        gw.events(1);
        assertFalse(gw.admin("GET", "/requests?limit=10", null).toString().contains(KEY));
    }

    @Test
    void aFailureEnvelopeIn200NamingAKeyOfNoKnownShapeIsMaskedBecauseDetourKnowsIt() {
        long id = account(PLAIN_KEY);
        upstream.enqueue(Reply.json(200, "{\"error\":{\"message\":\"token " + PLAIN_KEY + " has no access to up-x\","
                + "\"type\":\"new_api_error\"}}"));

        assertEquals(502, gw.chat("gpt-x").statusCode());

        String stored = storedFailureText(id);
        assertFalse(stored.contains(PLAIN_KEY), stored);
        assertTrue(stored.contains("token " + PLAIN_MASKED + " has no access"), stored);
        JsonNode state = gw.accountState(id);
        assertFalse(state.toString().contains(PLAIN_KEY), state.toString());
        assertTrue(state.toString().contains("token " + PLAIN_MASKED), state.toString());
    }

    @Test
    void aStreamWhoseFirstFrameEchoesTheKeyIsStoredMasked() {
        long id = account(KEY);
        upstream.enqueue(Reply.sse(List.of(ECHO)));

        HttpResponse<String> answer = gw.post("/v1/chat/completions", "{\"model\":\"gpt-x\",\"stream\":true,"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}");

        assertFalse(answer.body().contains(KEY), answer.body());
        String stored = storedFailureText(id);
        assertFalse(stored.contains(KEY), stored);
        assertTrue(stored.contains(MASKED), stored);
    }

    @Test
    void aModelTestAgainstAnUpstreamEchoingTheKeyShowsAndStoresItMasked() {
        long id = account(KEY);
        upstream.enqueue(Reply.json(401, ECHO));

        JsonNode result = gw.admin("POST", "/accounts/" + id + "/test", "{\"model\":\"gpt-x\"}");

        assertFalse(result.path("ok").asBoolean(), result.toString());
        assertFalse(result.toString().contains(KEY), result.toString());
        assertTrue(result.path("upstream_body").asText().contains(MASKED), result.toString());
        String stored = storedFailureText(id);
        assertFalse(stored.contains(KEY), stored);
        assertFalse(gw.admin("GET", "/accounts/" + id, null).toString().contains(KEY));
    }

    @Test
    void failureTextsStoredBeforeMaskingExistedAreMaskedAtTheNextStart() {
        long id = account(PLAIN_KEY);
        Rows.execute("UPDATE accounts SET last_failure_message = 'token " + PLAIN_KEY + " is disabled',"
                + " last_failure_response_json = '{\"error\":\"bad key " + KEY + "\"}' WHERE id = " + id);
        Rows.execute("INSERT INTO account_models (account_id, model_key, last_failure_message, created_at, updated_at)"
                + " VALUES (" + id + ", 'up-x', 'Bearer " + PLAIN_KEY + " refused', NOW(3), NOW(3))");

        App restarted = TestApp.start(gw.clock);
        try {
            String stored = storedFailureText(id);
            assertFalse(stored.contains(PLAIN_KEY) || stored.contains(KEY), stored);
            assertTrue(stored.contains("token " + PLAIN_MASKED + " is disabled"), stored);
            assertTrue(stored.contains("bad key " + MASKED), stored);
            assertTrue(stored.contains("Bearer " + PLAIN_MASKED + " refused"), stored);
        } finally {
            restarted.close();
        }
    }

    /** Every failure text MariaDB holds for the account: its own columns and its model rows. */
    private String storedFailureText(long accountId) {
        gw.settled(); // D-1: the failure is written by the state writer, just after the answer
        return String.join("\n", Rows.strings("SELECT CONCAT_WS(' | ', last_failure_message, last_failure_response_json)"
                + " FROM accounts WHERE id = " + accountId + " UNION ALL SELECT CONCAT_WS(' | ', last_failure_message,"
                + " last_failure_response_json) FROM account_models WHERE account_id = " + accountId));
    }
}
