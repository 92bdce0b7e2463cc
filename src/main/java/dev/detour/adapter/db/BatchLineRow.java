package dev.detour.adapter.db;

import dev.detour.recovery.BatchTests;
import dev.detour.recovery.ModelTestResult;
import java.time.Instant;

/** W-3: one batch_test_results row; the test's columns are filled once {@code tested}. */
public record BatchLineRow(String batchId, int line, long accountId, String accountName, String groupName,
        String outcome, boolean tested, boolean ok, long latencyMs, int httpStatus, String message,
        String upstreamBody, String endpoint, String model, String modelKey, String failureKind, Long firstByteMs,
        String servedModel, String failureClass, Instant updatedAt) {

    static BatchLineRow of(String batchId, int line, BatchTests.Result r, Instant at) {
        ModelTestResult t = r.test();
        if (t == null) {
            return new BatchLineRow(batchId, line, r.accountId(), r.accountName(), r.group(), r.outcome().wire(),
                    false, false, 0, 0, null, null, null, null, null, null, null, null, null, at);
        }
        return new BatchLineRow(batchId, line, r.accountId(), r.accountName(), r.group(), r.outcome().wire(), true,
                t.ok(), t.latencyMs(), t.status(), t.message(), t.upstreamBody(), t.endpoint(), t.model(),
                t.modelKey(), t.failureKind(), t.firstByteMs(), t.servedModel(), t.failureClass(), at);
    }

    BatchTests.Result result() {
        ModelTestResult test = tested ? new ModelTestResult(ok, latencyMs, httpStatus, message, upstreamBody,
                endpoint, model, modelKey, failureKind, firstByteMs, servedModel, failureClass) : null;
        return new BatchTests.Result(accountId, accountName, groupName, BatchTests.Outcome.fromWire(outcome), test);
    }
}
