package dev.detour.core.alerts;

import dev.detour.core.ValidationException;

/** W-1: what an alert is about; {@link #wire()} is the name channels subscribe to and payloads carry. */
public enum AlertKind {
    ACCOUNT_ERROR("account.error"),
    ACCOUNT_REVOKED("account.revoked"),
    ACCOUNT_CONFIG_ERROR("account.config_error"),
    ACCOUNT_RECOVERED("account.recovered"),
    MODEL_ERROR("model.error"),
    GROUP_HALTED("group.halted"),
    GROUP_UNAVAILABLE("group.unavailable"),
    KEY_SPEND_80("key.spend_80"),
    KEY_SPEND_100("key.spend_100"),
    /** L-1's rolling spend windows: one event per level, the window named in the object (key:<id>:<window>). */
    KEY_WINDOW_SPEND_80("key.window_spend_80"),
    KEY_WINDOW_SPEND_100("key.window_spend_100"),
    DATABASE_UNAVAILABLE("database.unavailable"),
    /** The console's and the API's "send test": never subscribed to, never suppressed. */
    TEST("test");

    private final String wire;

    AlertKind(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    public static AlertKind fromWire(String value) {
        for (AlertKind k : values()) {
            if (k.wire.equals(value)) {
                return k;
            }
        }
        throw new ValidationException("validation.events", "events", "unknown alert event: " + value);
    }
}
