package dev.detour.alerts;

import dev.detour.core.ValidationException;
import java.util.List;

/**
 * W-1: the formats an alert channel speaks. {@code secrets} are the fields sealed at rest and shown
 * only masked; {@code settings} the plain ones; {@code required} must be present on a channel.
 */
public enum ChannelKind {
    WEBHOOK("webhook", List.of("url"), List.of(), List.of("url")),
    SLACK("slack", List.of("url"), List.of(), List.of("url")),
    DISCORD("discord", List.of("url"), List.of(), List.of("url")),
    FEISHU("feishu", List.of("url", "sign_secret"), List.of(), List.of("url")),
    DINGTALK("dingtalk", List.of("url", "sign_secret"), List.of(), List.of("url")),
    WECOM("wecom", List.of("url"), List.of(), List.of("url")),
    TELEGRAM("telegram", List.of("bot_token"), List.of("chat_id", "api_base"), List.of("bot_token", "chat_id")),
    EMAIL("email", List.of("smtp_password"),
            List.of("smtp_host", "smtp_port", "smtp_username", "smtp_security", "from", "to"),
            List.of("smtp_host", "from", "to"));

    private final String wire;
    private final List<String> secrets;
    private final List<String> settings;
    private final List<String> required;

    ChannelKind(String wire, List<String> secrets, List<String> settings, List<String> required) {
        this.wire = wire;
        this.secrets = secrets;
        this.settings = settings;
        this.required = required;
    }

    public String wire() {
        return wire;
    }

    public List<String> secrets() {
        return secrets;
    }

    public List<String> settings() {
        return settings;
    }

    public List<String> required() {
        return required;
    }

    public static ChannelKind fromWire(String value) {
        for (ChannelKind k : values()) {
            if (k.wire.equals(value)) {
                return k;
            }
        }
        throw new ValidationException("validation.kind", "kind", "unknown channel kind: " + value
                + " (webhook, slack, discord, feishu, dingtalk, wecom, telegram, email)");
    }
}
