package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.admin.BlockDraft;
import dev.detour.admin.PriceAdmin;
import dev.detour.admin.PriceDraft;
import dev.detour.core.ValidationException;
import java.util.ArrayList;
import java.util.List;

/** JSON bodies → the drafts of {@link dev.detour.admin.PriceAdmin} and {@link dev.detour.admin.BlockAdmin}. */
final class SmartJson {
    private SmartJson() {
    }

    /**
     * {@code {"prices":[{"model":…,"input_micros_per_m":…,"output_micros_per_m":…}]}}, each item optionally with
     * the B-4 cache classes ({@link PriceAdmin#CACHE_FIELDS}).
     */
    static List<PriceDraft> prices(JsonNode body) {
        JsonNode items = body.get("prices");
        if (items == null || !items.isArray()) {
            throw new ValidationException("validation.prices", "prices", "prices must be a list");
        }
        List<PriceDraft> drafts = new ArrayList<>();
        for (JsonNode item : items) {
            drafts.add(new PriceDraft(item.path("model").asText(""), wholeNumber(item.get("input_micros_per_m")),
                    wholeNumber(item.get("output_micros_per_m")), optional(item, PriceAdmin.CACHE_FIELDS.get(0)),
                    optional(item, PriceAdmin.CACHE_FIELDS.get(1)), optional(item, PriceAdmin.CACHE_FIELDS.get(2))));
        }
        return drafts;
    }

    /** {@code {"scope":"account|model|endpoint_family|group","value":…,"reason":…,"expires_at":…}}. */
    static BlockDraft block(JsonNode body) {
        JsonNode value = body.path("value");
        JsonNode reason = body.path("reason");
        JsonNode expires = body.get("expires_at");
        return new BlockDraft(body.path("scope").asText(null), value.isValueNode() ? value.asText("") : "",
                reason.isTextual() ? reason.asText() : null, expires == null || expires.isNull() ? null : expires.asText());
    }

    /** B-4: a cache class's price; absent or null leaves it to its default, anything else must be a whole number. */
    private static Long optional(JsonNode item, String field) {
        JsonNode n = item.get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        Long amount = wholeNumber(n);
        if (amount == null) {
            throw new ValidationException("validation.price." + field, field, field + " must be a whole number ≥ 0");
        }
        return amount;
    }

    private static Long wholeNumber(JsonNode n) {
        return n == null || !n.canConvertToLong() || !n.isIntegralNumber() ? null : n.asLong();
    }
}
