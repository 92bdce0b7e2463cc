package dev.detour.gateway.port;

/** Waits retry_interval_ms between same-account retries (P-3); the attempt loop's unit test records the waits instead. */
@FunctionalInterface
public interface Pauser {
    void pause(long millis);

    Pauser SLEEP = millis -> {
        if (millis <= 0) {
            return;
        }
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    };
}
