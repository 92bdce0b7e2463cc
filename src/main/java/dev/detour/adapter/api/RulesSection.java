package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.admin.port.AccountGroup;
import dev.detour.admin.BlockDraft;
import dev.detour.admin.port.BlockRuleEntry;
import dev.detour.admin.PoolTransfer.Item;
import dev.detour.admin.PriceDraft;
import dev.detour.admin.port.PriceEntry;
import dev.detour.admin.port.SettingValues;
import dev.detour.admin.port.StoredAccount;
import dev.detour.core.ValidationException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * W-2 settings, prices (S-3) and block rules (S-10) of a pool document. Block rules have no name: a rule is known
 * by its scope and value, and a rule on an account or a group names it in {@code value} (ids are local to a
 * server); an import writes the rule with the target's id for that name.
 */
final class RulesSection {
    static final String BLOCKS = "block_rules";

    private RulesSection() {
    }

    static void export(PoolDocument.Pool pool, ObjectNode doc, ArrayNode skipped) {
        doc.set("settings", Documents.settings(pool.settings()));
        doc.set("prices", Documents.prices(pool.prices()).get("prices"));
        ArrayNode out = doc.putArray(BLOCKS);
        Names names = new Names(pool);
        Set<String> seen = new HashSet<>();
        for (BlockRuleEntry b : pool.blocks()) {
            ObjectNode o = block(b, names);
            if (o == null) {
                skipped.add("block rule " + b.scope() + " " + b.value()); // its account is archived or gone
            } else if (!seen.add(identity(o))) {
                // a second rule of the same scope and value blocks nothing more; the document holds each once
                skipped.add("block rule " + b.scope() + " " + b.value() + " (again)");
            } else {
                out.add(o);
            }
        }
    }

    /** A stored rule as the document holds it, or null when it names an account or a group the document lacks. */
    private static ObjectNode block(BlockRuleEntry b, Names names) {
        String value = switch (b.scope()) {
            case "account" -> names.accounts.get(b.value());
            case "group" -> names.groups.get(b.value());
            default -> b.value();
        };
        if (value == null) {
            return null;
        }
        ObjectNode o = Documents.JSON.createObjectNode().put("scope", b.scope()).put("value", value)
                .put("reason", b.reason());
        o.put("expires_at", b.expiresAt() == null ? null : b.expiresAt().toString());
        return o;
    }

    /** Names of the exported accounts and of every group, by id as text (the rules' stored values). */
    private static final class Names {
        final Map<String, String> accounts = new LinkedHashMap<>();
        final Map<String, String> groups = new LinkedHashMap<>();

        Names(PoolDocument.Pool pool) {
            for (StoredAccount a : pool.accounts()) {
                if (!a.account().archived() && !a.configError()) {
                    accounts.put(String.valueOf(a.id()), a.config().name());
                }
            }
            for (AccountGroup g : pool.groups()) {
                groups.put(String.valueOf(g.id()), g.name());
            }
        }
    }

    static Map<String, String> readSettings(JsonNode doc, SettingValues current, ArrayNode changes,
            Map<String, Map<String, Integer>> counts) {
        JsonNode settings = doc.get("settings");
        Map<String, String> changed = new LinkedHashMap<>();
        if (settings != null && !settings.isObject()) {
            throw new ValidationException("validation.import.settings", "settings", "settings must be an object");
        }
        if (settings != null) {
            settings.fields().forEachRemaining(e -> {
                if (!e.getValue().isIntegralNumber()) {
                    throw new ValidationException("validation.import.settings." + e.getKey(), "settings." + e.getKey(),
                            e.getKey() + " must be a whole number");
                }
                Long now = current.values().get(e.getKey());
                if (now == null || now != e.getValue().longValue()) {
                    changed.put(e.getKey(), e.getValue().asText());
                }
            });
        }
        DocumentDiff.Tally tally = new DocumentDiff.Tally(changes, "settings");
        if (settings != null) {
            tally.note("settings", new ArrayList<>(changed.keySet()));
        }
        tally.into(counts);
        return changed;
    }

    /** The merged price table (the document's models over the stored ones), or null when no model's price differs. */
    static List<PriceDraft> readPrices(JsonNode doc, List<PriceEntry> current, ArrayNode changes,
            Map<String, Map<String, Integer>> counts) {
        Map<String, ObjectNode> stored = new LinkedHashMap<>();
        Documents.prices(current).get("prices").forEach(p -> stored.put(p.path("model").asText(), (ObjectNode) p));
        Map<String, JsonNode> merged = new LinkedHashMap<>(stored);
        DocumentDiff.Tally tally = new DocumentDiff.Tally(changes, "prices");
        DocumentDiff.forEachObject(doc, "prices", (o, path) -> DocumentDiff.name(o, path, "model"), (path, model, o) -> {
            ObjectNode existing = stored.get(model);
            tally.note(model, existing == null ? null : DocumentDiff.differing(o, existing));
            merged.put(model, o);
        });
        tally.into(counts);
        if (tally.create + tally.update == 0) {
            return null;
        }
        ObjectNode body = Documents.JSON.createObjectNode();
        merged.values().forEach(body.putArray("prices")::add);
        return DocumentDiff.pointed("prices", "prices", () -> SmartJson.prices(body));
    }

    /**
     * Block rules by scope and value: a new one is created, one whose reason or expiry differs is replaced (its
     * {@code existingId}), the same one is left alone. Account and group names are resolved when written.
     */
    static List<Item<BlockDraft>> readBlocks(JsonNode doc, PoolDocument.Pool pool, ArrayNode changes,
            Map<String, Map<String, Integer>> counts) {
        Names names = new Names(pool);
        Map<String, ObjectNode> rendered = new LinkedHashMap<>();
        Map<String, Long> ids = new LinkedHashMap<>();
        for (BlockRuleEntry b : pool.blocks()) {
            ObjectNode o = block(b, names);
            if (o != null && rendered.putIfAbsent(identity(o), o) == null) {
                ids.put(identity(o), b.id());
            }
        }
        DocumentDiff.Tally tally = new DocumentDiff.Tally(changes, BLOCKS);
        List<Item<BlockDraft>> items = new ArrayList<>();
        DocumentDiff.forEachObject(doc, BLOCKS, (o, path) -> DocumentDiff.name(o, path, "scope") + ":"
                + DocumentDiff.name(o, path, "value"), (path, name, o) -> {
                    ObjectNode existing = rendered.get(name);
                    if (tally.note(name, existing == null ? null : DocumentDiff.differing(o, existing))) {
                        BlockDraft draft = new BlockDraft(o.get("scope").asText(), o.get("value").asText(),
                                text(o, "reason"), text(o, "expires_at"));
                        items.add(new Item<>(path, name, ids.get(name), draft));
                    }
                });
        tally.into(counts);
        return items;
    }

    private static String identity(ObjectNode rule) {
        return rule.get("scope").asText() + ":" + rule.get("value").asText();
    }

    private static String text(JsonNode o, String field) {
        JsonNode n = o.get(field);
        return n == null || n.isNull() ? null : n.asText();
    }
}
