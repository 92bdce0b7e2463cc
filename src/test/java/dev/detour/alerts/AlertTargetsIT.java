package dev.detour.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.testkit.AlertReceiver;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.TestApp;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * W-1 webhook URL rules at the admin API: http(s) only, no user:password in a field shown back, cloud
 * metadata and link-local never, loopback and private ranges only where the operator allows them
 * (DETOUR_ALERT_PRIVATE_TARGETS) — each refusal a 422 with a stable code, and nothing stored.
 */
class AlertTargetsIT {
    private Gateway gw;

    @AfterEach
    void stop() {
        gw.close();
    }

    private HttpResponse<String> create(String json) {
        return gw.send(HttpRequest.newBuilder(URI.create(gw.base() + "/admin/api/alerts/channels"))
                .header("Authorization", "Bearer " + TestApp.ADMIN_TOKEN).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build());
    }

    private String refusal(String kind, String field, String value) {
        String extra = kind.equals("telegram") ? ",\"bot_token\":\"123:abc\",\"chat_id\":\"1\"" : "";
        HttpResponse<String> r = create("{\"name\":\"c\",\"kind\":\"" + kind + "\",\"" + field + "\":\"" + value + "\""
                + extra + "}");
        JsonNode error = Gateway.read(r.body()).path("error");
        return r.statusCode() + " " + error.path("code").asText();
    }

    @Test
    void withPrivateTargetsOffOnlyPublicHttpTargetsAreTaken() {
        gw = Gateway.start(c -> c.withAlertPrivateTargets(false));
        gw.app.alerts().stopLoop(); // nothing is sent anywhere: only what the API takes is looked at
        assertEquals("422 validation.url", refusal("webhook", "url", "ftp://hooks.example.com/x"));
        assertEquals("422 validation.url", refusal("webhook", "url", "file:///etc/passwd"));
        assertEquals("422 validation.url.forbidden_target", refusal("webhook", "url", "http://169.254.169.254/latest"));
        assertEquals("422 validation.url.forbidden_target", refusal("slack", "url", "http://[fe80::1]/hook"));
        assertEquals("422 validation.url.private_target", refusal("webhook", "url", "http://127.0.0.1:9/hook"));
        assertEquals("422 validation.url.private_target", refusal("discord", "url", "https://10.0.0.5/hook"));
        assertEquals("422 validation.url.private_target", refusal("webhook", "url", "http://localhost:9/hook"));
        assertEquals("422 validation.api_base.credentials",
                refusal("telegram", "api_base", "https://user:pass@api.example.com"));
        assertEquals("422 validation.api_base.private_target", refusal("telegram", "api_base", "http://192.168.1.2"));
        assertEquals("422 validation.smtp_host.private_target", refusalEmail("127.0.0.1"));
        assertEquals(0, gw.admin("GET", "/alerts/channels", null).path("items").size(), "nothing stored");

        HttpResponse<String> taken = create("{\"name\":\"public\",\"kind\":\"webhook\","
                + "\"url\":\"https://user:secret-pass@203.0.113.10/hooks/abc\"}");
        assertEquals(201, taken.statusCode(), taken.body());
        assertFalse(taken.body().contains("secret-pass"), "a sealed URL is shown back only as its last four");
    }

    @Test
    void withPrivateTargetsOnALoopbackReceiverIsTakenButTheMetadataAddressNever() {
        gw = Gateway.start(); // the tests' configuration turns private targets on
        try (AlertReceiver receiver = AlertReceiver.start()) {
            HttpResponse<String> taken = create("{\"name\":\"local\",\"kind\":\"webhook\",\"url\":\""
                    + receiver.url("/hook") + "\"}");
            assertEquals(201, taken.statusCode(), taken.body());
        }
        assertEquals("422 validation.url.forbidden_target", refusal("webhook", "url", "http://169.254.169.254/"));
        assertEquals("422 validation.url.forbidden_target", refusal("webhook", "url", "http://[::ffff:a9fe:a9fe]/"));
        assertEquals("422 validation.url.forbidden_target", refusal("webhook", "url", "http://0.0.0.0:8080/"));
    }

    private String refusalEmail(String host) {
        HttpResponse<String> r = create("{\"name\":\"mail\",\"kind\":\"email\",\"smtp_host\":\"" + host
                + "\",\"from\":\"detour@example.com\",\"to\":\"ops@example.com\"}");
        return r.statusCode() + " " + Gateway.read(r.body()).path("error").path("code").asText();
    }
}
