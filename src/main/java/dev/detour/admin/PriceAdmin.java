package dev.detour.admin;

import dev.detour.admin.port.PriceEntry;
import dev.detour.admin.port.SmartRules;
import dev.detour.admin.port.Transactions;
import dev.detour.core.ValidationException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Model base prices (S-3, Smart keys): micros per million tokens, input and output, and B-4's cache
 * classes (read, write 5 min, write 1 h; each optional, a default from the input price when unset). PUT
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

    /** B-4: the optional per-class prices, by their field name in the API. */
    public static final List<String> CACHE_FIELDS = List.of("cache_read_micros_per_m", "cache_write_5m_micros_per_m",
            "cache_write_1h_micros_per_m");

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

    /**
     * One model's price (console form): set, or remove with every field empty.
     *
     * @param micros the form's values by API field name ({@code input_micros_per_m}, …); null for an empty field
     */
    public void put(String actor, String model, Map<String, Long> micros) {
        List<PriceDraft> prices = new ArrayList<>();
        for (PriceEntry p : list()) {
            if (!p.model().equals(model == null ? null : model.trim())) {
                prices.add(new PriceDraft(p.model(), p.inputMicrosPerM(), p.outputMicrosPerM(), p.cacheReadMicrosPerM(),
                        p.cacheWrite5mMicrosPerM(), p.cacheWrite1hMicrosPerM()));
            }
        }
        if (micros.values().stream().anyMatch(Objects::nonNull)) {
            prices.add(new PriceDraft(model, micros.get("input_micros_per_m"), micros.get("output_micros_per_m"),
                    micros.get(CACHE_FIELDS.get(0)), micros.get(CACHE_FIELDS.get(1)), micros.get(CACHE_FIELDS.get(2))));
        }
        replace(actor, prices);
    }

    private PriceEntry row(PriceDraft draft) {
        String model = draft.model() == null ? "" : draft.model().trim();
        if (model.isEmpty() || model.length() > 191) {
            throw new ValidationException("validation.price.model", "model", "model must be 1–191 characters");
        }
        return new PriceEntry(model, micros(draft.inputMicrosPerM(), "input_micros_per_m"),
                micros(draft.outputMicrosPerM(), "output_micros_per_m"),
                optionalMicros(draft.cacheReadMicrosPerM(), CACHE_FIELDS.get(0)),
                optionalMicros(draft.cacheWrite5mMicrosPerM(), CACHE_FIELDS.get(1)),
                optionalMicros(draft.cacheWrite1hMicrosPerM(), CACHE_FIELDS.get(2)), clock.instant());
    }

    private static long micros(Long amount, String field) {
        if (amount == null || amount < 0) {
            throw new ValidationException("validation.price." + field, field, field + " must be a whole number ≥ 0");
        }
        return amount;
    }

    /** B-4: a cache class's price; null leaves it to the default. */
    private static Long optionalMicros(Long amount, String field) {
        return amount == null ? null : micros(amount, field);
    }
}
