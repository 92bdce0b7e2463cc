package dev.detour.admin;

/**
 * R-4 model connectivity test, as the console's "test model" button calls it. The recovery work
 * provides the implementation; until then App passes null and the console hides the button.
 */
public interface ModelTestAction {
    /** ok, how long it took, the upstream HTTP status (null without one) and the raw failure or a short note. */
    record TestResult(boolean ok, long latencyMs, Integer status, String message) {
    }

    TestResult test(String actor, long accountId, String model);
}
