package dev.detour.alerts;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.GreenMailUtil;
import com.icegreen.greenmail.util.ServerSetup;
import dev.detour.core.alerts.Alert;
import dev.detour.core.alerts.AlertKind;
import dev.detour.testkit.AlertReceiver;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.TestDatabase;
import jakarta.mail.internet.MimeMessage;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * W-1 over real parts: the admin API and MariaDB, a real HTTP receiver on loopback for every webhook
 * format, a real SMTP server (GreenMail) for email; the alert thread stopped, ticked by the test's clock.
 */
class AlertChannelsIT {
    private static final String SLACK_TOKEN = "T0000-B0000-XXXXslackSecret1234";
    private static final String BOT_TOKEN = "123456:AAbbCCddEEffGGhhIIjjKKllMMnnOOpp9876";
    private static final String SIGN_SECRET = "SECsignsecretABCDEF0123456789";
    private Gateway gw;
    private AlertReceiver receiver;

    @BeforeEach
    void start() {
        gw = Gateway.start();
        gw.app.alerts().stopLoop();
        receiver = AlertReceiver.start();
    }

    @AfterEach
    void stop() {
        gw.close();
        receiver.close();
    }

    private HttpResponse<String> api(String method, String path, String body) {
        return gw.send(HttpRequest.newBuilder(URI.create(gw.base() + "/admin/api" + path))
                .header("Authorization", "Bearer " + dev.detour.testkit.TestApp.ADMIN_TOKEN)
                .header("Content-Type", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private long channel(String json) {
        HttpResponse<String> created = api("POST", "/alerts/channels", json);
        assertEquals(201, created.statusCode(), created.body());
        return Gateway.read(created.body()).path("id").asLong();
    }

    private void tick() {
        gw.app.alerts().tick(gw.clock.instant());
    }

    @Test
    void everyWebhookFormatReachesTheReceiverInItsDocumentedShapeWithoutItsSecret() {
        channel("{\"name\":\"generic\",\"kind\":\"webhook\",\"url\":\"" + receiver.url("/generic") + "\"}");
        channel("{\"name\":\"slack\",\"kind\":\"slack\",\"url\":\"" + receiver.url("/slack/" + SLACK_TOKEN) + "\"}");
        channel("{\"name\":\"discord\",\"kind\":\"discord\",\"url\":\"" + receiver.url("/discord") + "\"}");
        channel("{\"name\":\"feishu\",\"kind\":\"feishu\",\"url\":\"" + receiver.url("/feishu")
                + "\",\"sign_secret\":\"" + SIGN_SECRET + "\"}");
        channel("{\"name\":\"dingtalk\",\"kind\":\"dingtalk\",\"url\":\"" + receiver.url("/dingtalk?access_token=tok")
                + "\",\"sign_secret\":\"" + SIGN_SECRET + "\"}");
        channel("{\"name\":\"wecom\",\"kind\":\"wecom\",\"url\":\"" + receiver.url("/wecom?key=wecomkey") + "\"}");
        channel("{\"name\":\"telegram\",\"kind\":\"telegram\",\"bot_token\":\"" + BOT_TOKEN
                + "\",\"chat_id\":\"-1001\",\"api_base\":\"" + receiver.url("") + "\"}");

        gw.app.alerts().dispatcher().publish(new Alert(AlertKind.ACCOUNT_ERROR, "account:7", "account relay-a (7) is"
                + " error", "account relay-a (7) went from ok to error and is out of service", gw.clock.instant()));
        tick();

        assertEquals(7, receiver.received().size(), receiver.received().toString());
        JsonNode generic = Gateway.read(receiver.at("/generic").get(0).body());
        assertEquals("account.error", generic.path("event").asText());
        assertEquals("account:7", generic.path("object").asText());
        assertTrue(generic.path("title").asText().contains("relay-a"));
        assertEquals("2026-11-29T10:00:00Z", generic.path("occurred_at").asText());
        assertTrue(Gateway.read(receiver.at("/slack/" + SLACK_TOKEN).get(0).body()).path("text").asText()
                .contains("relay-a"));
        assertTrue(Gateway.read(receiver.at("/discord").get(0).body()).path("content").asText().contains("relay-a"));
        JsonNode feishu = Gateway.read(receiver.at("/feishu").get(0).body());
        assertEquals("text", feishu.path("msg_type").asText());
        assertTrue(feishu.path("content").path("text").asText().contains("relay-a"));
        assertEquals(Long.toString(gw.clock.instant().getEpochSecond()), feishu.path("timestamp").asText());
        assertFalse(feishu.path("sign").asText().isEmpty());
        AlertReceiver.Received ding = receiver.at("/dingtalk").get(0);
        assertEquals("text", Gateway.read(ding.body()).path("msgtype").asText());
        assertTrue(Gateway.read(ding.body()).path("text").path("content").asText().contains("relay-a"));
        assertTrue(ding.query().startsWith("access_token=tok&timestamp=" + gw.clock.instant().toEpochMilli()
                + "&sign="), ding.query());
        JsonNode wecom = Gateway.read(receiver.at("/wecom").get(0).body());
        assertEquals("text", wecom.path("msgtype").asText());
        assertTrue(wecom.path("text").path("content").asText().contains("relay-a"));
        JsonNode telegram = Gateway.read(receiver.at("/bot" + BOT_TOKEN + "/sendMessage").get(0).body());
        assertEquals("-1001", telegram.path("chat_id").asText());
        assertTrue(telegram.path("text").asText().contains("relay-a"));
        for (AlertReceiver.Received r : receiver.received()) {
            for (String secret : List.of(SLACK_TOKEN, BOT_TOKEN, SIGN_SECRET, "wecomkey")) {
                assertFalse(r.body().contains(secret), r.path() + " carries a secret in its body: " + r.body());
            }
        }
        JsonNode log = Gateway.read(api("GET", "/alerts/deliveries", null).body());
        assertEquals(7, log.path("total").asLong());
        log.path("items").forEach(d -> assertEquals("sent", d.path("status").asText(), d.toString()));
        log.path("items").forEach(d -> assertEquals(200, d.path("http_status").asInt()));
    }

    @Test
    void emailReachesARealSmtpServerOnLoopback() throws Exception {
        GreenMail smtp = new GreenMail(new ServerSetup(0, "127.0.0.1", ServerSetup.PROTOCOL_SMTP));
        smtp.start();
        try {
            smtp.setUser("alerts@example.test", "alerts", "smtp-pass-0123456789");
            long id = channel("{\"name\":\"mail\",\"kind\":\"email\",\"smtp_host\":\"127.0.0.1\",\"smtp_port\":"
                    + smtp.getSmtp().getPort() + ",\"smtp_security\":\"none\",\"smtp_username\":\"alerts\","
                    + "\"smtp_password\":\"smtp-pass-0123456789\",\"from\":\"detour@example.test\","
                    + "\"to\":\"ops@example.test\"}");
            HttpResponse<String> test = api("POST", "/alerts/channels/" + id + "/test", null);
            assertEquals(200, test.statusCode(), test.body());
            assertEquals("sent", Gateway.read(test.body()).path("status").asText(), test.body());
            assertEquals(Gateway.read(test.body()).path("id").asLong(), Gateway.read(api("GET", "/alerts/deliveries",
                    null).body()).path("items").get(0).path("id").asLong(), "the test is in the delivery log");

            MimeMessage[] mails = smtp.getReceivedMessages();
            assertEquals(1, mails.length);
            assertEquals("[Detour] Detour test alert", mails[0].getSubject());
            assertEquals("ops@example.test", mails[0].getAllRecipients()[0].toString());
            String body = GreenMailUtil.getBody(mails[0]);
            assertTrue(body.contains("channel mail (email) works"), body);
            assertFalse(body.contains("smtp-pass-0123456789"));
        } finally {
            smtp.stop();
        }
    }

    @Test
    void secretsAreSealedAtRestShownOnlyAsHintsAndEveryChangeIsAudited() throws Exception {
        long id = channel("{\"name\":\"tg\",\"kind\":\"telegram\",\"bot_token\":\"" + BOT_TOKEN
                + "\",\"chat_id\":\"42\",\"events\":[\"account.revoked\"],\"suppress_seconds\":60}");
        String shown = api("GET", "/alerts/channels/" + id, null).body();
        assertFalse(shown.contains(BOT_TOKEN), shown);
        JsonNode channel = Gateway.read(shown);
        assertEquals("…9876", channel.path("bot_token_hint").asText());
        assertEquals("42", channel.path("chat_id").asText());
        assertEquals("[\"account.revoked\"]", channel.path("events").toString());
        String stored = sql("SELECT CONCAT(secrets_sealed, secret_hints, settings_json) FROM alert_channels").get(0);
        assertFalse(stored.contains(BOT_TOKEN), "the bot token is sealed at rest");

        HttpResponse<String> renamed = api("PUT", "/alerts/channels/" + id, "{\"name\":\"telegram-ops\"}");
        assertEquals(200, renamed.statusCode(), renamed.body());
        assertEquals("…9876", Gateway.read(renamed.body()).path("bot_token_hint").asText(), "an omitted secret stays");
        assertEquals(422, api("POST", "/alerts/channels", "{\"name\":\"x\",\"kind\":\"slack\"}").statusCode());
        assertEquals(409, api("POST", "/alerts/channels", "{\"name\":\"telegram-ops\",\"kind\":\"webhook\",\"url\":"
                + "\"http://127.0.0.1:1/\"}").statusCode());
        assertEquals(204, api("DELETE", "/alerts/channels/" + id, null).statusCode());
        assertEquals(404, api("GET", "/alerts/channels/" + id, null).statusCode());

        assertEquals(List.of("alert_channel.create", "alert_channel.update", "alert_channel.delete"),
                sql("SELECT action FROM audit_log WHERE target_type = 'alert_channel' ORDER BY id"));
        for (String json : sql("SELECT CONCAT(COALESCE(before_json, ''), COALESCE(after_json, '')) FROM audit_log")) {
            assertFalse(json.contains(BOT_TOKEN), json);
        }
    }

    @Test
    void theSameEventAboutTheSameObjectIsSentOncePerSuppressionWindow() {
        channel("{\"name\":\"hook\",\"kind\":\"webhook\",\"url\":\"" + receiver.url("/hook")
                + "\",\"suppress_seconds\":600}");
        AlertDispatcher alerts = gw.app.alerts().dispatcher();
        alerts.publish(revoked("account:1"));
        tick();
        gw.clock.advance(Duration.ofMinutes(5));
        alerts.publish(revoked("account:1"));
        alerts.publish(revoked("account:2")); // another object: its own window
        tick();
        assertEquals(List.of("account:1", "account:2"), objects(receiver.at("/hook")));

        gw.clock.advance(Duration.ofMinutes(5)); // 10 minutes after the first: the window is over
        alerts.publish(revoked("account:1"));
        tick();
        assertEquals(List.of("account:1", "account:2", "account:1"), objects(receiver.at("/hook")));
    }

    @Test
    void aReceiverAnswering500IsRetriedWithBackoffAndThePendingRetrySurvivesARestart() {
        channel("{\"name\":\"hook\",\"kind\":\"webhook\",\"url\":\"" + receiver.url("/hook") + "\"}");
        receiver.answer(500, 500);
        gw.app.alerts().dispatcher().publish(revoked("account:1"));
        tick();
        JsonNode first = delivery();
        assertEquals("pending", first.path("status").asText());
        assertEquals(1, first.path("attempts").asInt());
        assertEquals(500, first.path("http_status").asInt());
        assertEquals("2026-11-29T10:00:30Z", first.path("next_retry_at").asText(), "30 s after the first failure");

        gw.clock.advance(Duration.ofSeconds(29));
        tick();
        assertEquals(1, receiver.at("/hook").size(), "not before its retry time");
        gw.clock.advance(Duration.ofSeconds(1));
        tick();
        JsonNode second = delivery();
        assertEquals(2, second.path("attempts").asInt());
        assertEquals("2026-11-29T10:01:30Z", second.path("next_retry_at").asText(), "then 60 s");

        gw = gw.restart(); // the retry is a row: a new process sends it
        gw.app.alerts().stopLoop();
        gw.clock.advance(Duration.ofSeconds(60));
        tick();
        JsonNode third = delivery();
        assertEquals("sent", third.path("status").asText(), third.toString());
        assertEquals(3, third.path("attempts").asInt());
        assertEquals(200, third.path("http_status").asInt());
        assertTrue(third.path("next_retry_at").isNull());
        assertEquals(3, receiver.at("/hook").size());
    }

    @Test
    void aDeliveryThatKeepsFailingIsMarkedFailedAfterItsLastAttempt() {
        channel("{\"name\":\"hook\",\"kind\":\"webhook\",\"url\":\"" + receiver.url("/hook") + "\"}");
        receiver.answer(503, 503, 503, 503, 503, 503);
        gw.app.alerts().dispatcher().publish(revoked("account:1"));
        for (int i = 0; i < 8; i++) {
            tick();
            gw.clock.advance(Duration.ofMinutes(10));
        }
        JsonNode last = delivery();
        assertEquals("failed", last.path("status").asText());
        assertEquals(6, last.path("attempts").asInt());
        assertTrue(last.path("next_retry_at").isNull());
        assertEquals(6, receiver.at("/hook").size());
    }

    private Alert revoked(String object) {
        return new Alert(AlertKind.ACCOUNT_REVOKED, object, object + " is revoked", object + " is out of service",
                gw.clock.instant());
    }

    private JsonNode delivery() {
        JsonNode items = Gateway.read(api("GET", "/alerts/deliveries", null).body()).path("items");
        assertEquals(1, items.size(), items.toString());
        return items.get(0);
    }

    private static List<String> objects(List<AlertReceiver.Received> received) {
        return received.stream().map(r -> Gateway.read(r.body()).path("object").asText()).toList();
    }

    private static List<String> sql(String query) throws RuntimeException {
        try (Connection c = TestDatabase.database().dataSource().getConnection();
                Statement s = c.createStatement(); ResultSet rs = s.executeQuery(query)) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

}
