package dev.detour.admin;

/**
 * The console's "test model connectivity" button: one real minimal request to one account for
 * one model; {@code status} is the upstream HTTP status (0 when none arrived), {@code message} the
 * upstream's failure text, truncated (null on success).
 */
public interface ModelTestAction {
    TestResult test(String actor, long accountId, String model);

    record TestResult(boolean ok, long latencyMs, int status, String message) {
    }
}
