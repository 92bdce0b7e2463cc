package dev.detour.recovery;

import dev.detour.core.ValidationException;
import dev.detour.core.account.Account;
import dev.detour.core.recovery.ServedModel;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * W-3 batch model test: one R-4 test of one model per chosen account, run on the recovery probe threads
 * under the site's probe budget — each test waits for a budget slot, so a batch and the background
 * probes together never pass the budget's limits. The instance that starts a batch runs it and writes each
 * line to the {@link BatchStore} as it changes, so every instance reads the batch's live lines and they
 * outlast a restart; the store keeps the last {@value #KEPT} batches. A batch whose instance is gone from the
 * registry (G-2) while lines were still pending or running reads as interrupted: nothing runs them any more.
 */
public final class BatchTests {
    private static final Logger log = LoggerFactory.getLogger(BatchTests.class);
    static final int KEPT = 20;
    private static final SecureRandom IDS = new SecureRandom();

    /**
     * Where one account's test stands; {@code WRONG_MODEL}: it answered, naming another model than it was asked;
     * {@code INTERRUPTED}: the instance running it stopped or died before the test ran or finished.
     */
    public enum Outcome { PENDING, RUNNING, PASSED, FAILED, WRONG_MODEL, NOT_SERVED, INTERRUPTED;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Outcome fromWire(String wire) {
            return valueOf(wire.toUpperCase(Locale.ROOT));
        }

        boolean finished() {
            return this != PENDING && this != RUNNING;
        }
    }

    /** One account's line; {@code test} is null until it finished (and for an account that does not serve the model). */
    public record Result(long accountId, String accountName, String group, Outcome outcome, ModelTestResult test) {
        Result with(Outcome next, ModelTestResult result) {
            return new Result(accountId, accountName, group, next, result);
        }
    }

    /** A batch as read now: its lines in the order asked. */
    public record Batch(String id, String model, Instant startedAt, List<Result> results) {
        public boolean done() {
            return results.stream().allMatch(r -> r.outcome().finished());
        }

        /** Its instance stopped before every line finished. */
        public boolean interrupted() {
            return count(Outcome.INTERRUPTED) > 0;
        }

        public long count(Outcome outcome) {
            return results.stream().filter(r -> r.outcome() == outcome).count();
        }

        /** The accounts whose test passed (the ones "recover those that passed" acts on). */
        public List<Long> passed() {
            return results.stream().filter(r -> r.outcome() == Outcome.PASSED).map(Result::accountId).toList();
        }

        /** As read where the running instance is gone: what had not finished will not. */
        Batch cutShort() {
            return new Batch(id, model, startedAt, results.stream()
                    .map(r -> r.outcome().finished() ? r : r.with(Outcome.INTERRUPTED, null)).toList());
        }
    }

    private record Running(String id, String model, Instant startedAt, AtomicReferenceArray<Result> results) {
        Batch read() {
            List<Result> lines = new ArrayList<>(results.length());
            for (int i = 0; i < results.length(); i++) {
                lines.add(results.get(i));
            }
            return new Batch(id, model, startedAt, List.copyOf(lines));
        }
    }

    /** An account to test and the name of its group (for the table). */
    public record Target(Account account, String group) {
    }

    private final ModelTester tester;
    private final ProbeBudget budget;
    private final Executor executor;
    private final BatchStore store;
    private final String instanceId;
    private final Predicate<String> instanceLive;
    private final Clock clock;
    /** This instance's own batches, read from here when the store cannot answer. */
    private final Map<String, Running> batches = new LinkedHashMap<>();

    /**
     * {@code instanceId}: this instance's registry id; {@code instanceLive}: whether a registry id belongs to an
     * instance that is still live (G-2 heartbeat).
     */
    public BatchTests(ModelTester tester, ProbeBudget budget, Executor executor, BatchStore store, String instanceId,
            Predicate<String> instanceLive, Clock clock) {
        this.tester = tester;
        this.budget = budget;
        this.executor = executor;
        this.store = store;
        this.instanceId = instanceId;
        this.instanceLive = instanceLive;
        this.clock = clock;
    }

    /** Starts a batch and answers at once; {@code model} is the request-side name every account is asked for. */
    public synchronized Batch start(String model, List<Target> targets) {
        if (model == null || model.isBlank()) {
            throw new ValidationException("validation.batch_test.model", "model", "name the model to test");
        }
        if (targets.isEmpty()) {
            throw new ValidationException("validation.batch_test.accounts", "account_ids",
                    "no account to test: the choice matched none");
        }
        String name = model.trim();
        AtomicReferenceArray<Result> results = new AtomicReferenceArray<>(targets.size());
        for (int i = 0; i < targets.size(); i++) {
            Account a = targets.get(i).account();
            boolean serves = a.mappings().upstreamNameFor(name).isPresent();
            results.set(i, new Result(a.id(), a.name(), targets.get(i).group(),
                    serves ? Outcome.PENDING : Outcome.NOT_SERVED, null));
        }
        Running batch = new Running(HexFormat.of().formatHex(id()), name,
                clock.instant(), results);
        store.insert(batch.read(), instanceId, KEPT); // stored first: a batch no other instance could see is not started
        batches.put(batch.id(), batch);
        while (batches.size() > KEPT) {
            batches.remove(batches.keySet().iterator().next());
        }
        List<Account> accounts = targets.stream().map(Target::account).toList();
        try {
            executor.execute(() -> drive(batch, accounts));
        } catch (RejectedExecutionException e) {
            stopped(batch, 0);
            throw new IllegalStateException("Detour is stopping: no batch test now", e);
        }
        return batch.read();
    }

    /** The batch as stored, whichever instance runs it; cut short when that instance is gone. */
    public Optional<Batch> get(String id) {
        Optional<BatchStore.StoredBatch> stored;
        try {
            stored = store.find(id);
        } catch (RuntimeException e) {
            log.warn("batch test {} read from this instance's memory, the store did not answer: {}", id, e.toString());
            return local(id);
        }
        if (stored.isEmpty()) {
            return local(id);
        }
        Batch batch = stored.get().batch();
        String runner = stored.get().instanceId();
        if (!batch.done() && !runner.equals(instanceId) && !instanceLive.test(runner)) {
            return Optional.of(batch.cutShort());
        }
        return Optional.of(batch);
    }

    private synchronized Optional<Batch> local(String id) {
        return Optional.ofNullable(batches.get(id)).map(Running::read);
    }

    private static byte[] id() {
        byte[] bytes = new byte[8];
        IDS.nextBytes(bytes);
        return bytes;
    }

    /** Starts each test when the budget gives a slot, in the order asked; the slot is given back when it ends. */
    private void drive(Running batch, List<Account> accounts) {
        for (int i = 0; i < accounts.size(); i++) {
            if (batch.results().get(i).outcome() != Outcome.PENDING) {
                continue;
            }
            try {
                budget.acquire(clock::instant);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                stopped(batch, i);
                return;
            }
            int line = i;
            write(batch, line, batch.results().updateAndGet(line, r -> r.with(Outcome.RUNNING, null)));
            try {
                executor.execute(() -> run(batch, line, accounts.get(line)));
            } catch (RejectedExecutionException e) {
                budget.release();
                stopped(batch, i);
                return;
            }
        }
    }

    private void run(Running batch, int line, Account account) {
        Result done;
        try {
            ModelTestResult result = tester.test(account, batch.model(), ModelTester.Mode.BATCH);
            done = batch.results().get(line).with(outcome(result), result);
        } catch (RuntimeException e) {
            log.warn("batch test of account {} failed to run: {}", account.id(), e.toString());
            done = batch.results().get(line).with(Outcome.FAILED, null);
        } finally {
            budget.release();
        }
        batch.results().set(line, done);
        write(batch, line, done);
    }

    /** A line the store misses is still read here; the others read it once a later write of the line lands. */
    private void write(Running batch, int line, Result result) {
        try {
            store.updateLine(batch.id(), line, result);
        } catch (RuntimeException e) {
            log.warn("batch test {} line {} not stored: {}", batch.id(), line, e.toString());
        }
    }

    static Outcome outcome(ModelTestResult result) {
        if (!result.ok()) {
            return Outcome.FAILED;
        }
        return ServedModel.matches(result.modelKey(), result.servedModel()) ? Outcome.PASSED : Outcome.WRONG_MODEL;
    }

    /** Detour is stopping: what has not finished is marked interrupted, so the batch reads as done. */
    private void stopped(Running batch, int from) {
        for (int i = from; i < batch.results().length(); i++) {
            Result before = batch.results().get(i);
            if (!before.outcome().finished()) {
                write(batch, i, batch.results().updateAndGet(i, r -> r.outcome().finished() ? r
                        : r.with(Outcome.INTERRUPTED, null)));
            }
        }
    }
}
