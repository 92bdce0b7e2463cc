package dev.detour.admin;

import dev.detour.core.ValidationException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Model base prices (S-3, Smart keys): micros per million tokens, input and output. PUT
 * replaces the whole table (a model left out becomes unknown). Audited; bumps the pool revision.
 */
public final class PriceAdmin {
    private final Transactions transactions;
    private final AuditLog audit;
    private final Clock clock;

    public PriceAdmin(Transactions transactions, AuditLog audit, Clock clock) {
        this.transactions = transactions;
        this.audit = audit;
        this.clock = clock;
    }

    public List<PriceEntry> list() {
        return transactions.read(c -> c.smartRules().prices());
    }

    /** The whole table: every model's price, checked before anything is written. */
    public List<PriceEntry> replace(String actor, List<PriceDraft> prices) {
        List<PriceEntry> rows = prices.stream().map(this::row).toList();
        return transactions.inTransaction(c -> {
            SmartRules rules = c.smartRules();
            List<PriceEntry> before = rules.prices();
            before.forEach(p -> rules.deletePrice(p.model()));
            rows.forEach(rules::upsertPrice);
            audit.record(c, actor, "prices.replace", "prices", 0, audit.documents().prices(before),
                    audit.documents().prices(rows));
            c.bumpPoolRevision();
            return rules.prices();
        });
    }

    /** One model's price (console form): set, or remove with both fields empty. */
    public void put(String actor, String model, Long input, Long output) {
        List<PriceDraft> prices = new ArrayList<>();
        for (PriceEntry p : list()) {
            if (!p.model().equals(model == null ? null : model.trim())) {
                prices.add(new PriceDraft(p.model(), p.inputMicrosPerM(), p.outputMicrosPerM()));
            }
        }
        if (input != null || output != null) {
            prices.add(new PriceDraft(model, input, output));
        }
        replace(actor, prices);
    }

    private PriceEntry row(PriceDraft draft) {
        String model = draft.model() == null ? "" : draft.model().trim();
        if (model.isEmpty() || model.length() > 191) {
            throw new ValidationException("validation.price.model", "model", "model must be 1–191 characters");
        }
        return new PriceEntry(model, micros(draft.inputMicrosPerM(), "input_micros_per_m"),
                micros(draft.outputMicrosPerM(), "output_micros_per_m"), clock.instant());
    }

    private static long micros(Long amount, String field) {
        if (amount == null || amount < 0) {
            throw new ValidationException("validation.price." + field, field, field + " must be a whole number ≥ 0");
        }
        return amount;
    }
}
