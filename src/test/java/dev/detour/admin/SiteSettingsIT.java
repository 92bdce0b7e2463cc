package dev.detour.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.OneUpstreamCase;
import dev.detour.fake.Reply;
import dev.detour.testkit.Rows;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** U-5 settings through GET/PUT /admin/api/settings: validation codes, storage, live application. */
class SiteSettingsIT extends OneUpstreamCase {
    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource(delimiter = '|', value = {
        "{\"read_timeout_seconds\":0}                  | validation.settings.read_timeout_seconds",
        "{\"read_timeout_seconds\":3601}               | validation.settings.read_timeout_seconds",
        "{\"connect_timeout_seconds\":-1}              | validation.settings.connect_timeout_seconds",
        "{\"probe_concurrency\":0}                     | validation.settings.probe_concurrency",
        "{\"probe_budget_per_minute\":601}             | validation.settings.probe_budget_per_minute",
        "{\"sticky_ttl_seconds\":\"soon\"}             | validation.settings.sticky_ttl_seconds",
        "{\"sticky_ttl_seconds\":-1}                  | validation.settings.sticky_ttl_seconds",
        "{\"sticky_ttl_seconds\":86401}               | validation.settings.sticky_ttl_seconds",
        "{\"retention_days\":0}                        | validation.settings.retention_days",
        "{\"queue_wait_seconds\":-1}                  | validation.settings.queue_wait_seconds",
        "{\"queue_wait_seconds\":601}                 | validation.settings.queue_wait_seconds",
        "{\"queue_max_length\":-1}                    | validation.settings.queue_max_length",
        "{\"queue_max_length\":1001}                  | validation.settings.queue_max_length",
        "{\"idle_bonus_max_ppm\":1.5}                  | validation.settings.idle_bonus_max_ppm",
        "{\"no_such_setting\":1}                       | validation.settings.unknown",
        "{\"absolute_max_ratio_ppm\":1000,\"default_max_ratio_ppm\":2000} | validation.settings.default_max_ratio_ppm",
    })
    void outOfRangeValuesAreRejectedWithTheFieldsCodeAndNothingIsStored(String body, String code) {
        JsonNode error = gw.admin("PUT", "/settings", body).path("error");
        assertEquals(code, error.path("code").asText());
        assertEquals(0, Rows.number("SELECT COUNT(*) FROM settings"));
        assertEquals(180, gw.admin("GET", "/settings", null).path("read_timeout_seconds").asLong());
    }

    @Test
    void aValidChangeIsStoredAuditedAndReturned() {
        JsonNode saved = gw.admin("PUT", "/settings", "{\"sticky_ttl_seconds\":600,\"retention_days\":7}");
        assertEquals(600, saved.path("sticky_ttl_seconds").asLong());
        assertEquals(7, gw.admin("GET", "/settings", null).path("retention_days").asLong());
        assertEquals("600", Rows.strings("SELECT value FROM settings WHERE name = 'sticky_ttl_seconds'").get(0));
        assertEquals(7, gw.app.settings().current().retentionDays());
        assertEquals("settings.update", Rows.strings("SELECT action FROM audit_log ORDER BY id DESC").get(0));
    }

    @Test
    void aLowerReadTimeoutAppliesToTheNextRequestWithoutARestart() {
        long account = gw.account("slow", upstream, "[{\"from\":\"m\",\"to\":\"m\"}]",
                "{\"failure_policy\":{\"retry_count\":0,\"cooldown_enabled\":false}}");
        upstream.handler(r -> Reply.stallBeforeHeaders()); // held until the fake closes
        assertEquals(1, gw.admin("PUT", "/settings", "{\"read_timeout_seconds\":1}").path("read_timeout_seconds").asLong());

        HttpResponse<String> response = gw.chat("m");
        assertTrue(response.statusCode() >= 500, "the stalled upstream timed out: " + response.statusCode());
        String id = response.headers().firstValue("x-detour-request-id").orElseThrow();
        Gateway.await(() -> gw.event(id).has("attempts"), "event written");
        JsonNode attempt = gw.event(id).path("attempts").get(0);
        assertEquals("transport", attempt.path("failure_kind").asText(), attempt.toString());
        assertTrue(gw.accountState(account).toString().contains("read timeout"), "P-4 read timeout of 1 s");
    }
}
