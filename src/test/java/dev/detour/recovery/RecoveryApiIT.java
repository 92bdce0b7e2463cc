package dev.detour.recovery;

import static dev.detour.recovery.RecoveryFixture.MAPS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.fake.RecordedRequest;
import dev.detour.fake.Reply;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** through the admin API: model tests, recover, recover all, status. */
class RecoveryApiIT {
    private Gateway gw;
    private FakeUpstream upstream;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        gw.app.recovery().stopLoop();
        upstream = FakeUpstream.start();
    }

    @AfterEach
    void stop() {
        gw.close();
        upstream.close();
    }

    private JsonNode test(long id, String model) {
        return gw.admin("POST", "/accounts/" + id + "/test", "{\"model\":\"" + model + "\"}");
    }

    @Test
    void anExplicitTestOfModelXNeverClearsModelYsCooldown() {
        long id = gw.account("a", upstream, MAPS, null);
        RecoveryFixture.setStatus(id, "error");
        RecoveryFixture.modelRow(gw, id, "upstream-sol", "ok", true);
        RecoveryFixture.modelRow(gw, id, "upstream-glm", "ok", true);
        gw.app.snapshot().reload();

        JsonNode result = test(id, "gpt-5.6-sol");
        assertTrue(result.path("ok").asBoolean(), result.toString());
        assertEquals(200, result.path("status").asInt());
        assertEquals("chat_completions", result.path("endpoint").asText());
        assertTrue(result.path("latency_ms").asLong() >= 0);
        assertEquals("upstream-sol", upstream.lastRequest().model());

        JsonNode state = gw.accountState(id);
        assertEquals("ok", state.path("status").asText(), "a passing test pulls an error account back");
        assertNull(RecoveryFixture.model(state, "upstream-sol"), "the tested model's row is cleared");
        JsonNode glm = RecoveryFixture.model(state, "upstream-glm");
        assertNotNull(glm, "the sibling model's row is untouched");
        assertTrue(glm.path("cooldown_remaining_s").asInt() > 0);

        JsonNode event = gw.events(1).get(0);
        assertEquals("model_test", event.path("reason_code").asText());
        assertEquals("success", event.path("outcome").asText());
        assertTrue(gw.admin("GET", "/audit?limit=5", null).toString().contains("account.test"));
    }

    @Test
    void aFailingTestReportsTheUpstreamMessageAndIsRecordedLikeLiveTraffic() {
        long id = gw.account("a", upstream, MAPS, null);
        upstream.enqueue(Reply.openAiError(500, "upstream exploded", "server_error"));
        JsonNode result = test(id, "glm-5.3");
        assertFalse(result.path("ok").asBoolean());
        assertEquals(500, result.path("status").asInt());
        assertTrue(result.path("upstream_body").asText().contains("upstream exploded"), result.toString());
        assertEquals("model_test_status", result.path("failure_kind").asText());
        JsonNode row = RecoveryFixture.model(gw.accountState(id), "upstream-glm");
        assertNotNull(row, "recorded on the model's row");
        assertEquals(1, row.path("transient_failure_count").asInt());
        assertEquals("failure", gw.events(1).get(0).path("outcome").asText());
    }

    @Test
    void aPausedAnthropicAccountCanBeTestedInItsOwnProtocol() {
        JsonNode created = gw.admin("POST", "/accounts", "{\"name\":\"claude\",\"group\":\"default\","
                + "\"platform\":\"anthropic\",\"base_url\":\"" + upstream.url() + "\",\"api_key\":\"sk-ant-secret-1\","
                + "\"model_mappings\":[{\"from\":\"claude-x\",\"to\":\"claude-x-up\"}]}");
        long id = created.path("id").asLong();
        RecoveryFixture.setStatus(id, "paused");
        gw.app.snapshot().reload();
        upstream.enqueue(Reply.json(200, "{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\","
                + "\"content\":[{\"type\":\"text\",\"text\":\"p\"}],\"model\":\"claude-x-up\",\"stop_reason\":\"max_tokens\","
                + "\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}"));
        JsonNode result = test(id, "claude-x");
        assertTrue(result.path("ok").asBoolean(), result.toString());
        RecordedRequest seen = upstream.lastRequest();
        assertEquals("/v1/messages", seen.path());
        assertEquals("sk-ant-secret-1", seen.header("x-api-key"));
        assertEquals(1, Gateway.read(seen.body()).path("max_tokens").asInt());
        assertEquals("messages", result.path("endpoint").asText());
    }

    @Test
    void aModelTheAccountDoesNotServeIsRefusedAndAnUnknownAccountIs404() {
        long id = gw.account("a", upstream, MAPS, null);
        assertEquals("validation.model", test(id, "nope").path("error").path("code").asText());
        assertEquals("not_found", test(999_999, "gpt-5.6-sol").path("error").path("code").asText());
        assertEquals(0, upstream.requestCount());
    }

    @Test
    void recoverAllBringsBackOrdinaryFailuresButNeverRevokedOrPaused() {
        long error = gw.account("error", upstream, MAPS, null);
        long cooling = gw.account("cooling", upstream, MAPS, null);
        long revoked = gw.account("revoked", upstream, MAPS, null);
        long paused = gw.account("paused", upstream, MAPS, null);
        long healthy = gw.account("healthy", upstream, MAPS, null);
        RecoveryFixture.setStatus(error, "error");
        RecoveryFixture.modelRow(gw, cooling, "upstream-sol", "ok", true);
        RecoveryFixture.setStatus(revoked, "revoked");
        RecoveryFixture.setStatus(paused, "paused");
        gw.app.snapshot().reload();
        assertEquals(3, gw.admin("GET", "/recovery", null).path("accounts_in_need").asInt(),
                "error, cooling, paused (revoked never)");

        JsonNode recovered = gw.admin("POST", "/recovery/recover-all", "{}").path("recovered");
        assertEquals(List.of(error, cooling), List.of(recovered.get(0).asLong(), recovered.get(1).asLong()));
        assertEquals(2, recovered.size());
        assertEquals("ok", RecoveryFixture.status(error));
        assertEquals(List.of(), RecoveryFixture.modelRows(cooling));
        assertEquals("revoked", RecoveryFixture.status(revoked));
        assertEquals("paused", RecoveryFixture.status(paused));
        assertEquals("ok", RecoveryFixture.status(healthy));
        assertTrue(gw.admin("GET", "/audit?limit=5", null).toString().contains("recovery.recover_all"));
    }

    @Test
    void recoverOneAccountIsAuditedAndLeavesPausedAlone() {
        long error = gw.account("error", upstream, MAPS, null);
        long paused = gw.account("paused", upstream, MAPS, null);
        RecoveryFixture.setStatus(error, "error");
        RecoveryFixture.setStatus(paused, "paused");
        gw.app.snapshot().reload();
        assertTrue(gw.admin("POST", "/accounts/" + error + "/recover", "{}").path("recovered").asBoolean());
        assertEquals("ok", gw.accountState(error).path("status").asText());
        JsonNode refused = gw.admin("POST", "/accounts/" + paused + "/recover", "{}");
        assertFalse(refused.path("recovered").asBoolean());
        assertEquals("paused", refused.path("reason").asText());
        assertTrue(gw.admin("GET", "/audit?limit=5", null).toString().contains("account.recover"));
    }

    @Test
    void theRecoveryStatusNamesTheLeaderAndTheProbeSwitch() {
        gw.app.recovery().tick(gw.clock.instant());
        JsonNode status = gw.admin("GET", "/recovery", null);
        assertTrue(status.path("this_instance_leads").asBoolean(), status.toString());
        assertFalse(status.path("probes_paused").asBoolean());
        assertTrue(status.path("last_tick").path("leader").asBoolean());
    }
}
