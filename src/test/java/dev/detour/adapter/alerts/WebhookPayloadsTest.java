package dev.detour.adapter.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.detour.alerts.AlertChannel;
import dev.detour.alerts.ChannelKind;
import dev.detour.alerts.Delivery;
import dev.detour.core.alerts.AlertKind;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Map;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/** W-1: each format's request shape and signature, and no secret in any body. */
class WebhookPayloadsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
    private static final String SECRET = "SECabcdef0123456789";
    private static final Delivery ALERT = new Delivery(0, 1, "ops", AlertKind.GROUP_HALTED, "group:2",
            "group main is halted", "group main (2) is halted", NOW, 0, Delivery.Status.PENDING, null, null, NOW, NOW,
            NOW);

    private static AlertChannel channel(ChannelKind kind, Map<String, String> settings, Map<String, String> secrets) {
        return new AlertChannel(1, "ops", kind, true, Set.of(), Duration.ZERO, settings, secrets, Map.of());
    }

    private static JsonNode body(WebhookPayloads.WebhookRequest request) throws Exception {
        return JSON.readTree(request.json());
    }

    @Test
    void theGenericWebhookCarriesTheEventAsFields() throws Exception {
        var r = WebhookPayloads.of(channel(ChannelKind.WEBHOOK, Map.of(), Map.of("url", "https://h.test/x")), ALERT,
                NOW);
        assertEquals("https://h.test/x", r.uri().toString());
        JsonNode b = body(r);
        assertEquals("group.halted", b.path("event").asText());
        assertEquals("group:2", b.path("object").asText());
        assertEquals("2026-12-01T10:00:00Z", b.path("occurred_at").asText());
        assertEquals("detour", b.path("source").asText());
    }

    @Test
    void slackDiscordAndWecomGetTheirTextFields() throws Exception {
        assertEquals("*group main is halted*\ngroup main (2) is halted", body(WebhookPayloads.of(
                channel(ChannelKind.SLACK, Map.of(), Map.of("url", "https://hooks.test/T/B/x")), ALERT, NOW))
                .path("text").asText());
        assertEquals("**group main is halted**\ngroup main (2) is halted", body(WebhookPayloads.of(
                channel(ChannelKind.DISCORD, Map.of(), Map.of("url", "https://d.test/api/webhooks/1/x")), ALERT, NOW))
                .path("content").asText());
        JsonNode wecom = body(WebhookPayloads.of(channel(ChannelKind.WECOM, Map.of(),
                Map.of("url", "https://q.test/cgi-bin/webhook/send?key=k")), ALERT, NOW));
        assertEquals("text", wecom.path("msgtype").asText());
        assertEquals("group main is halted\ngroup main (2) is halted", wecom.path("text").path("content").asText());
    }

    @Test
    void feishuIsSignedInTheBodyWithTheTimestampAndSecretAsKey() throws Exception {
        JsonNode b = body(WebhookPayloads.of(channel(ChannelKind.FEISHU, Map.of(),
                Map.of("url", "https://f.test/open-apis/bot/v2/hook/x", "sign_secret", SECRET)), ALERT, NOW));
        assertEquals("text", b.path("msg_type").asText());
        assertEquals("1796119200", b.path("timestamp").asText());
        assertEquals(hmac("1796119200\n" + SECRET, ""), b.path("sign").asText());
        assertFalse(b.toString().contains(SECRET));
    }

    @Test
    void dingtalkIsSignedInTheUrlWithTheSecretAsKey() throws Exception {
        var r = WebhookPayloads.of(channel(ChannelKind.DINGTALK, Map.of(),
                Map.of("url", "https://o.test/robot/send?access_token=t", "sign_secret", SECRET)), ALERT, NOW);
        String query = r.uri().getRawQuery();
        String ms = Long.toString(NOW.toEpochMilli());
        assertEquals("access_token=t&timestamp=" + ms + "&sign=", query.substring(0, query.indexOf("sign=") + 5));
        assertEquals(hmac(SECRET, ms + "\n" + SECRET),
                URLDecoder.decode(query.substring(query.indexOf("sign=") + 5), StandardCharsets.UTF_8));
        assertEquals("text", body(r).path("msgtype").asText());
        assertFalse(r.json().contains(SECRET));
    }

    @Test
    void telegramPostsSendMessageWithTheTokenInThePathOnly() throws Exception {
        String token = "123456:AAbbCCdd";
        var r = WebhookPayloads.of(channel(ChannelKind.TELEGRAM, Map.of("chat_id", "-100"),
                Map.of("bot_token", token)), ALERT, NOW);
        assertEquals("https://api.telegram.org/bot" + token + "/sendMessage", r.uri().toString());
        assertEquals("-100", body(r).path("chat_id").asText());
        assertFalse(r.json().contains(token));
    }

    @Test
    void aBotThatAnswers200WithAnErrorCodeDidNotTakeTheAlert() {
        assertNull(ChannelSenders.refusal("ok"));
        assertNull(ChannelSenders.refusal("{\"errcode\":0,\"errmsg\":\"ok\"}"));
        assertNull(ChannelSenders.refusal("{\"ok\":true,\"result\":{}}"));
        assertEquals("refused: {\"errcode\":310000,\"errmsg\":\"sign not match\"}",
                ChannelSenders.refusal("{\"errcode\":310000,\"errmsg\":\"sign not match\"}"));
        assertEquals("refused: {\"code\":19021,\"msg\":\"sign match fail\"}",
                ChannelSenders.refusal("{\"code\":19021,\"msg\":\"sign match fail\"}"));
        assertEquals("refused: {\"ok\":false}", ChannelSenders.refusal("{\"ok\":false}"));
    }

    private static String hmac(String key, String data) throws Exception {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        return Base64.getEncoder().encodeToString(mac.doFinal(data.getBytes(StandardCharsets.UTF_8)));
    }
}
