package dev.detour.core.attempt;

/**
 * What the attempt loop did after one attempt (P-3), as the request event records it. The wire
 * strings are part of the event log and the admin API.
 */
public enum AttemptAction {
    /** The answer went to the client: a success or a client error returned as it is. */
    FINAL("final"),
    /** A failure; the same account is tried again after its retry interval. */
    RETRY_SAME("retry_same"),
    /** A failure recorded on the account; the loop moves on (or stops, P-10). */
    SWITCH("switch");

    private final String wire;

    AttemptAction(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    /** The action for a stored wire value, or null when it is unknown. */
    public static AttemptAction fromWire(String value) {
        for (AttemptAction a : values()) {
            if (a.wire.equals(value)) {
                return a;
            }
        }
        return null;
    }
}
