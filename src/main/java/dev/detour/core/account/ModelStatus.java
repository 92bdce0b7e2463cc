package dev.detour.core.account;

/** Status of one (account, model_key) row: error is set by a semantic streak, paused only by a person. */
public enum ModelStatus {
    OK, ERROR, PAUSED;

    public String wire() {
        return name().toLowerCase();
    }

    public static ModelStatus fromWire(String value) {
        return valueOf(value.toUpperCase());
    }
}
