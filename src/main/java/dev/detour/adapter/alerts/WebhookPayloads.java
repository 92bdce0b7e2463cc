package dev.detour.adapter.alerts;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.alerts.AlertChannel;
import dev.detour.alerts.Delivery;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.Base64;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * W-1: each HTTP channel's request for one alert, in the receiver's documented shape:
 * <ul>
 * <li>webhook: Detour's own JSON ({@code event}, {@code object}, {@code title}, {@code text},
 * {@code occurred_at}, {@code source});</li>
 * <li>Slack incoming webhook: {@code {"text"}}; Discord webhook: {@code {"content"}} (at most 2,000
 * characters);</li>
 * <li>Feishu custom bot: {@code {"msg_type":"text","content":{"text"}}}, signed when a secret is set
 * ({@code timestamp} in seconds and {@code sign} = Base64(HmacSHA256 keyed with "timestamp\nsecret" over
 * nothing));</li>
 * <li>DingTalk custom robot: {@code {"msgtype":"text","text":{"content"}}}, signed by adding
 * {@code timestamp} (ms) and {@code sign} = URL-encoded Base64(HmacSHA256 keyed with the secret over
 * "timestamp\nsecret") to the URL;</li>
 * <li>WeCom group robot: {@code {"msgtype":"text","text":{"content"}}};</li>
 * <li>Telegram Bot API: POST {@code <api_base>/bot<token>/sendMessage} with {@code {"chat_id","text"}}.</li>
 * </ul>
 * The body holds the alert's words only: no secret of the channel (the URL and tokens stay in the
 * request line) and none of the pool (alerts carry names, ids and statuses).
 */
public final class WebhookPayloads {
    public static final String TELEGRAM_API = "https://api.telegram.org";
    static final int DISCORD_MAX = 2000;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** Where to POST and what. */
    public record WebhookRequest(URI uri, String json) {
    }

    private WebhookPayloads() {
    }

    public static WebhookRequest of(AlertChannel channel, Delivery d, Instant now) {
        String line = d.title() + "\n" + d.text();
        ObjectNode body = JSON.createObjectNode();
        String url = channel.secret("url");
        switch (channel.kind()) {
            case WEBHOOK -> body.put("event", d.event().wire()).put("object", d.object()).put("title", d.title())
                    .put("text", d.text()).put("occurred_at", d.occurredAt().toString()).put("source", "detour");
            case SLACK -> body.put("text", "*" + d.title() + "*\n" + d.text());
            case DISCORD -> body.put("content", cut("**" + d.title() + "**\n" + d.text(), DISCORD_MAX));
            case FEISHU -> {
                body.put("msg_type", "text").putObject("content").put("text", line);
                String secret = channel.secret("sign_secret");
                if (secret != null) {
                    String timestamp = Long.toString(now.getEpochSecond());
                    body.put("timestamp", timestamp).put("sign", hmac(timestamp + "\n" + secret, ""));
                }
            }
            case DINGTALK -> {
                body.put("msgtype", "text").putObject("text").put("content", line);
                String secret = channel.secret("sign_secret");
                if (secret != null) {
                    String timestamp = Long.toString(now.toEpochMilli());
                    url += (url.contains("?") ? "&" : "?") + "timestamp=" + timestamp + "&sign="
                            + URLEncoder.encode(hmac(secret, timestamp + "\n" + secret), StandardCharsets.UTF_8);
                }
            }
            case WECOM -> body.put("msgtype", "text").putObject("text").put("content", line);
            case TELEGRAM -> {
                body.put("chat_id", channel.setting("chat_id")).put("text", line);
                String base = channel.settings().getOrDefault("api_base", TELEGRAM_API);
                url = base.replaceAll("/+$", "") + "/bot" + channel.secret("bot_token") + "/sendMessage";
            }
            default -> throw new IllegalArgumentException("not an HTTP channel: " + channel.kind());
        }
        if (url == null) {
            throw new IllegalArgumentException("the channel has no url");
        }
        return new WebhookRequest(URI.create(url), body.toString());
    }

    private static String cut(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max - 1) + "…";
    }

    private static String hmac(String key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return Base64.getEncoder().encodeToString(mac.doFinal(data.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
