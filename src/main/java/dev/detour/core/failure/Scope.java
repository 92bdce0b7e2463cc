package dev.detour.core.failure;

/** F-3: which layer of the two-layer failure state a failure is charged to. */
public enum Scope {
    ACCOUNT, MODEL;

    public String wire() {
        return name().toLowerCase();
    }
}
