package dev.detour.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.ValidationException;
import java.time.Clock;
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

    public List<PriceEntry> list() {
        return transactions.read(c -> c.smartRules().prices());
    }

    /** B-4: the optional per-class prices, by their field name in the API. */
    public static final List<String> CACHE_FIELDS = List.of("cache_read_micros_per_m", "cache_write_5m_micros_per_m",
            "cache_write_1h_micros_per_m");

    /**
     * {@code {"prices":[{"model":…,"input_micros_per_m":…,"output_micros_per_m":…}]}}, each item optionally with
     * the {@link #CACHE_FIELDS} (absent or null: the default).
     */
    public List<PriceEntry> replace(String actor, JsonNode body) {
        JsonNode items = body.get("prices");
        if (items == null || !items.isArray()) {
            throw new ValidationException("validation.prices", "prices", "prices must be a list");
        }
        List<PriceEntry> rows = new java.util.ArrayList<>();
        for (JsonNode item : items) {
            rows.add(row(item));
        }
        return transactions.inTransaction(c -> {
            SmartRules rules = c.smartRules();
            List<PriceEntry> before = rules.prices();
            before.forEach(p -> rules.deletePrice(p.model()));
            rows.forEach(rules::upsertPrice);
            audit.record(c, actor, "prices.replace", "prices", 0, json(document(before)),
                    json(document(rows)));
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
        ObjectNode body = Documents.JSON.createObjectNode();
        ArrayNode items = body.putArray("prices");
        for (PriceEntry p : list()) {
            if (!p.model().equals(model == null ? null : model.trim())) {
                items.add(item(p));
            }
        }
        if (micros.values().stream().anyMatch(Objects::nonNull)) {
            ObjectNode item = items.addObject().put("model", model);
            micros.forEach(item::put);
        }
        replace(actor, body);
    }

    private PriceEntry row(JsonNode item) {
        String model = item.path("model").asText("").trim();
        if (model.isEmpty() || model.length() > 191) {
            throw new ValidationException("validation.price.model", "model", "model must be 1–191 characters");
        }
        return new PriceEntry(model, micros(item, "input_micros_per_m"), micros(item, "output_micros_per_m"),
                optionalMicros(item, CACHE_FIELDS.get(0)), optionalMicros(item, CACHE_FIELDS.get(1)),
                optionalMicros(item, CACHE_FIELDS.get(2)), clock.instant());
    }

    private static long micros(JsonNode item, String field) {
        JsonNode n = item.get(field);
        if (n == null || !n.canConvertToLong() || !n.isIntegralNumber() || n.asLong() < 0) {
            throw new ValidationException("validation.price." + field, field, field + " must be a whole number ≥ 0");
        }
        return n.asLong();
    }

    /** B-4: a cache class's price; absent or null leaves it to the default. */
    private static Long optionalMicros(JsonNode item, String field) {
        JsonNode n = item.get(field);
        return n == null || n.isNull() ? null : micros(item, field);
    }

    static String json(Object node) {
        try {
            return Documents.JSON.writeValueAsString(node);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    public static ObjectNode document(List<PriceEntry> rows) {
        ObjectNode page = Documents.JSON.createObjectNode();
        ArrayNode items = page.putArray("prices");
        rows.forEach(p -> items.add(item(p)));
        return page;
    }

    private static ObjectNode item(PriceEntry p) {
        return Documents.JSON.createObjectNode().put("model", p.model()).put("input_micros_per_m", p.inputMicrosPerM())
                .put("output_micros_per_m", p.outputMicrosPerM()).put(CACHE_FIELDS.get(0), p.cacheReadMicrosPerM())
                .put(CACHE_FIELDS.get(1), p.cacheWrite5mMicrosPerM())
                .put(CACHE_FIELDS.get(2), p.cacheWrite1hMicrosPerM());
    }
}
