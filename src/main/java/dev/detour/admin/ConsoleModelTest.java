package dev.detour.admin;

import dev.detour.recovery.ModelTestResult;

/** The console drawer's test button, backed by the audited {@link RecoveryAdmin#test}. */
public final class ConsoleModelTest implements ModelTestAction {
    private final RecoveryAdmin admin;

    public ConsoleModelTest(RecoveryAdmin admin) {
        this.admin = admin;
    }

    @Override
    public TestResult test(String actor, long accountId, String model) {
        ModelTestResult r = admin.test(actor, accountId, model);
        return new TestResult(r.ok(), r.latencyMs(), r.status(), r.summary());
    }
}
