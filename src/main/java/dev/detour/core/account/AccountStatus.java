package dev.detour.core.account;

import dev.detour.core.ValidationException;

/** ok | warning | error (automatic) | revoked (never auto-recovered) | paused (only by a person). */
public enum AccountStatus {
    OK, WARNING, ERROR, REVOKED, PAUSED;

    public String wire() {
        return name().toLowerCase();
    }

    public static AccountStatus fromWire(String value) {
        for (AccountStatus s : values()) {
            if (s.wire().equals(value)) {
                return s;
            }
        }
        throw new ValidationException("validation.status", "status", "unknown account status: " + value);
    }
}
