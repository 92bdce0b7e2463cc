package dev.detour.adapter.alerts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.detour.alerts.AlertChannel;
import dev.detour.alerts.AlertSender;
import dev.detour.alerts.ChannelKind;
import dev.detour.alerts.Delivery;
import dev.detour.alerts.SendOutcome;
import dev.detour.alerts.TargetCheck;
import dev.detour.core.secret.SecretMask;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;

/**
 * W-1's {@link AlertSender}: email through {@link SmtpMail}, every other kind as one HTTP POST with the
 * JDK client (connect 5 s, whole exchange 10 s: a slow receiver holds up only the alert thread, never
 * a request). A receiver has taken the alert when it answers 2xx and its body does not say otherwise
 * (DingTalk and WeCom {@code errcode}, Feishu {@code code}, Telegram {@code ok}). Error texts are
 * masked: the channel's secrets never reach the delivery log or the logs.
 */
public final class ChannelSenders implements AlertSender {
    static final Duration CONNECT = Duration.ofSeconds(5);
    static final Duration EXCHANGE = Duration.ofSeconds(10);
    private static final ObjectMapper JSON = new ObjectMapper();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(CONNECT)
            .followRedirects(HttpClient.Redirect.NEVER).build();
    private final SmtpMail mail = new SmtpMail(CONNECT, EXCHANGE);
    private final Clock clock;
    private final TargetCheck targets;

    /** {@code targets}: checked again before each send, as the name may resolve elsewhere than when entered. */
    public ChannelSenders(Clock clock, TargetCheck targets) {
        this.clock = clock;
        this.targets = targets;
    }

    @Override
    public SendOutcome send(AlertChannel channel, Delivery delivery) {
        SecretMask mask = SecretMask.knowing(channel.secrets().values());
        try {
            if (channel.kind() == ChannelKind.EMAIL) {
                String refused = targets.refusedSend(channel.setting("smtp_host"));
                if (refused != null) {
                    return SendOutcome.failed(null, refused);
                }
                mail.send(channel, delivery);
                return SendOutcome.sent(null);
            }
            WebhookPayloads.WebhookRequest request = WebhookPayloads.of(channel, delivery, clock.instant());
            String refused = targets.refusedSend(request.uri().getHost());
            if (refused != null) {
                return SendOutcome.failed(null, mask.apply(refused));
            }
            return post(request, mask);
        } catch (IOException | RuntimeException e) {
            return SendOutcome.failed(null, mask.apply(cut(describe(e))));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return SendOutcome.failed(null, "interrupted");
        }
    }

    private SendOutcome post(WebhookPayloads.WebhookRequest request, SecretMask mask)
            throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(request.uri()).timeout(EXCHANGE)
                .header("content-type", "application/json; charset=utf-8").header("user-agent", "Detour-alerts")
                .POST(HttpRequest.BodyPublishers.ofString(request.json())).build(),
                HttpResponse.BodyHandlers.ofString());
        int status = response.statusCode();
        if (status < 200 || status > 299) {
            return SendOutcome.failed(status, mask.apply(cut("HTTP " + status + ": " + response.body())));
        }
        String refusal = refusal(response.body());
        return refusal == null ? SendOutcome.sent(status) : SendOutcome.failed(status, mask.apply(cut(refusal)));
    }

    /** What a 2xx body says when the bot platform did not take the message, or null. */
    static String refusal(String body) {
        JsonNode node;
        try {
            node = JSON.readTree(body);
        } catch (IOException e) {
            return null; // not JSON (Slack answers "ok"): the 2xx is the answer
        }
        if (node == null || !node.isObject()) {
            return null;
        }
        if (node.has("errcode") && node.path("errcode").asInt() != 0
                || node.has("code") && node.path("code").isInt() && node.path("code").asInt() != 0
                || node.has("ok") && node.path("ok").isBoolean() && !node.path("ok").asBoolean()) {
            return "refused: " + body;
        }
        return null;
    }

    private static String describe(Exception e) {
        String message = e.getMessage();
        return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    private static String cut(String text) {
        return SecretMask.cut(text, 480);
    }
}
