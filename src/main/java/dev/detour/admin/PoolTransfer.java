package dev.detour.admin;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.admin.port.AccountPatch;
import dev.detour.admin.port.Accounts;
import dev.detour.admin.port.AuditEntry;
import dev.detour.admin.port.Changes;
import dev.detour.admin.port.DetourKeys;
import dev.detour.admin.port.Groups;
import dev.detour.admin.port.ModelStates;
import dev.detour.admin.port.RecoveryActions;
import dev.detour.admin.port.SecretSealer;
import dev.detour.admin.port.SmartRules;
import dev.detour.admin.port.StoredSettings;
import dev.detour.admin.port.Transactions;
import dev.detour.core.ValidationException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * W-2 import of a pool document, already read into the use cases' own inputs: every create and update goes
 * through the same use case the console and the admin API use (their rules, nothing repeated), all in one
 * transaction. What is unchanged is not written at all, so a second import of the same document writes nothing.
 * The import leaves one audit row with its counts instead of one per object; a dry run does the same work and
 * rolls it back, so it refuses exactly what applying would refuse.
 */
public final class PoolTransfer {
    /** One object to write: where it sits in the document ({@code accounts[3]}), its name, and its id when it exists. */
    public record Item<T>(String path, String name, Long existingId, T patch) {
    }

    /**
     * What to write, in order: groups (accounts name them), accounts, settings (only those that differ), prices
     * (the whole merged table, or null when none differ), block rules (account and group rules name them in
     * {@code value}; an {@code existingId} is the rule it replaces), key policies (API bodies for the keys of
     * those ids, groups by name). {@code counts} per section: create / update / unchanged (/ skipped).
     */
    public record Plan(List<Item<GroupPatch>> groups, List<Item<AccountPatch>> accounts, Map<String, String> settings,
            List<PriceDraft> prices, List<Item<BlockDraft>> blocks, List<Item<ObjectNode>> keyPolicies,
            Map<String, Map<String, Integer>> counts) {
        boolean changesNothing() {
            return groups.isEmpty() && accounts.isEmpty() && settings.isEmpty() && prices == null && blocks.isEmpty()
                    && keyPolicies.isEmpty();
        }
    }

    private static final class DryRun extends RuntimeException {
        DryRun() {
            super(null, null, false, false);
        }
    }

    private final Transactions transactions;
    private final AccountRepository repository;
    private final SecretSealer secrets;
    private final AuditLog audit;
    private final SiteSettings settings;
    private final Clock clock;

    public PoolTransfer(Transactions transactions, AccountRepository repository, SecretSealer secrets, AuditLog audit,
            SiteSettings settings, Clock clock) {
        this.transactions = transactions;
        this.repository = repository;
        this.secrets = secrets;
        this.audit = audit;
        this.settings = settings;
        this.clock = clock;
    }

    /**
     * Applies the plan (or, on a dry run, checks it and changes nothing); errors name the document's path.
     * {@code alongside} (null: none): the document's writes of other use cases (W-1's alert channels), run on the
     * same unit of work after the plan's, so the whole document commits or rolls back together.
     */
    public void apply(String actor, Plan plan, boolean dryRun, Consumer<Changes> alongside) {
        if (plan.changesNothing() && alongside == null) {
            return; // idempotent: nothing to write, nothing to audit
        }
        try {
            transactions.inTransaction(c -> {
                write(c, actor, plan);
                if (alongside != null) {
                    alongside.accept(c);
                }
                if (dryRun) {
                    throw new DryRun();
                }
                String after = AdminJson.JSON.createObjectNode().set("counts", AdminJson.JSON.valueToTree(plan.counts()))
                        .toString();
                audit.record(c, actor, "pool.import", "pool", 0, null, after);
                c.bumpPoolRevision();
                return null;
            });
        } catch (DryRun rolledBack) {
            return;
        }
        settings.refresh(); // this instance follows the imported settings at once
    }

    /** The use cases, joined to this one transaction, with their own audit rows left out (the import writes one). */
    private void write(Changes c, String actor, Plan plan) {
        Transactions joined = joined(new QuietChanges(c));
        GroupAdmin groups = new GroupAdmin(joined, audit, clock);
        for (Item<GroupPatch> g : plan.groups()) {
            at(g, () -> g.existingId() == null ? groups.create(actor, g.patch())
                    : groups.update(actor, g.existingId(), g.patch()));
        }
        AccountAdmin accounts = new AccountAdmin(joined, repository, secrets, audit, clock);
        for (Item<AccountPatch> a : plan.accounts()) {
            at(a, () -> a.existingId() == null ? accounts.create(actor, a.patch())
                    : accounts.update(actor, a.existingId(), a.patch()));
        }
        if (!plan.settings().isEmpty()) {
            at(new Item<>("settings", "settings", null, null),
                    () -> settings.within(joined, audit).update(plan.settings(), actor));
        }
        if (plan.prices() != null) {
            at(new Item<>("prices", "prices", null, null), () -> new PriceAdmin(joined, audit, clock)
                    .replace(actor, plan.prices()));
        }
        BlockAdmin blocks = new BlockAdmin(joined, audit, clock);
        for (Item<BlockDraft> b : plan.blocks()) {
            at(b, () -> {
                if (b.existingId() != null) {
                    blocks.delete(actor, b.existingId()); // its reason or expiry changed: the document's rule replaces it
                }
                return blocks.create(actor, ImportedNames.withLocalId(c, b.patch()));
            });
        }
        KeyAdmin keys = new KeyAdmin(joined, audit, clock);
        for (Item<ObjectNode> k : plan.keyPolicies()) {
            at(k, () -> keys.update(actor, k.existingId(),
                    KeyPatch.parse(ImportedNames.withGroupIds(c, k.patch()))));
        }
    }

    /** Runs one object's write; a use case's refusal is pointed at the object's place in the document. */
    public static void at(Item<?> item, java.util.function.Supplier<?> work) {
        try {
            work.get();
        } catch (ValidationException e) {
            throw pointAt(item.path(), item.name(), e);
        }
    }

    /**
     * A use case's refusal pointed at the document: code {@code validation.import.<section>.<field>}, field
     * {@code <path>.<field>} ({@code accounts[3].base_url}), the message naming the object and the use case's code.
     */
    public static ValidationException pointAt(String path, String name, ValidationException e) {
        String section = path.replaceAll("\\[.*$", "");
        String field = e.field() == null ? "" : e.field();
        String code = "validation.import." + section + (field.isEmpty() ? "" : "." + field);
        return new ValidationException(code, path + (field.isEmpty() ? "" : "." + field),
                name + ": " + e.getMessage() + " (" + e.code() + ")");
    }

    private static Transactions joined(Changes c) {
        return new Transactions() {
            @Override
            public <T> T inTransaction(java.util.function.Function<Changes, T> work) {
                return work.apply(c);
            }

            @Override
            public <T> T read(java.util.function.Function<Changes, T> work) {
                return work.apply(c);
            }
        };
    }

    /** Counts of one section, in the order the diff shows them. */
    public static Map<String, Integer> counts(int create, int update, int unchanged) {
        Map<String, Integer> m = new LinkedHashMap<>();
        m.put("create", create);
        m.put("update", update);
        m.put("unchanged", unchanged);
        return m;
    }

    /** Every store of the import's transaction, but its audit rows are dropped. */
    private record QuietChanges(Changes c) implements Changes {
        @Override
        public Accounts accounts() {
            return c.accounts();
        }

        @Override
        public Groups groups() {
            return c.groups();
        }

        @Override
        public DetourKeys keys() {
            return c.keys();
        }

        @Override
        public SmartRules smartRules() {
            return c.smartRules();
        }

        @Override
        public ModelStates modelStates() {
            return c.modelStates();
        }

        @Override
        public StoredSettings settings() {
            return c.settings();
        }

        @Override
        public RecoveryActions recovery() {
            return c.recovery();
        }

        @Override
        public void audit(AuditEntry entry) {
            // the import's one row says what it did
        }

        @Override
        public List<AuditEntry> recentAudit(int limit) {
            return new ArrayList<>(c.recentAudit(limit));
        }

        @Override
        public void bumpPoolRevision() {
            c.bumpPoolRevision();
        }
    }
}
