package dev.detour.core.selection;

import dev.detour.core.ValidationException;

/** What an S-10 admin block rule matches on. */
public enum BlockScope {
    ACCOUNT, MODEL, ENDPOINT_FAMILY, GROUP;

    public String wire() {
        return name().toLowerCase();
    }

    public static BlockScope fromWire(String value) {
        for (BlockScope s : values()) {
            if (s.wire().equals(value == null ? null : value.trim())) {
                return s;
            }
        }
        throw new ValidationException("validation.block_rule.scope", "scope",
                "scope must be one of account, model, endpoint_family, group");
    }
}
