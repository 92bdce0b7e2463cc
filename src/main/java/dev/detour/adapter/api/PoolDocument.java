package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.adapter.crypto.PassphraseSeal;
import dev.detour.admin.port.AccountGroup;
import dev.detour.admin.port.AccountPatch;
import dev.detour.admin.GroupPatch;
import dev.detour.admin.PoolTransfer;
import dev.detour.admin.PoolTransfer.Item;
import dev.detour.admin.PriceDraft;
import dev.detour.admin.port.PriceEntry;
import dev.detour.admin.port.SettingValues;
import dev.detour.admin.port.StoredAccount;
import dev.detour.core.ValidationException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * W-2 pool document ({@code "detour_export": 1}): groups, accounts, settings and prices, each object known by
 * its name (never an id), so a document moves between servers. Upstream keys only when asked, sealed with a
 * passphrase ({@link PassphraseSeal}); Detour key secrets never. Reading a document compares it with the pool
 * as it is now, object by object, into a {@link PoolTransfer.Plan} and a diff of the fields that differ.
 */
final class PoolDocument {
    static final int VERSION = 1;
    private static final Set<String> NOT_EXPORTED_GROUP = Set.of("id", "created_at", "updated_at", "config_error");
    private static final Set<String> NOT_EXPORTED_ACCOUNT = Set.of("id", "group_id", "api_key_hint", "archived",
            "revision", "created_at", "updated_at", "config_error");
    private static final String SEALED_KEY = "api_key_sealed";

    /** The pool as stored, as the document holds it. */
    record Pool(List<AccountGroup> groups, List<StoredAccount> accounts, SettingValues settings,
            List<PriceEntry> prices) {
    }

    /** A read document: what to write, and per object what it would do. */
    record Reading(PoolTransfer.Plan plan, ArrayNode changes) {
    }

    private PoolDocument() {
    }

    /**
     * Archived accounts and accounts whose stored config cannot be read (D-4) are left out (named under
     * {@code skipped}). {@code apiKey}: the plain key by account id, or null to leave keys out.
     */
    static ObjectNode export(Pool pool, LongFunction<String> apiKey, PassphraseSeal seal, Instant at) {
        ObjectNode doc = Documents.JSON.createObjectNode().put("detour_export", VERSION).put("exported_at", at.toString());
        if (seal != null) {
            doc.set("key_protection", Documents.JSON.valueToTree(seal.params()));
        }
        ArrayNode groups = doc.putArray("groups");
        pool.groups().forEach(g -> groups.add(group(g)));
        ArrayNode accounts = doc.putArray("accounts");
        ArrayNode skipped = Documents.JSON.createArrayNode();
        for (StoredAccount a : pool.accounts()) {
            if (a.account().archived() || a.configError()) {
                skipped.add(a.config().name());
                continue;
            }
            ObjectNode o = account(a);
            if (seal != null) {
                o.put(SEALED_KEY, seal.seal(apiKey.apply(a.id()), a.config().name()));
            }
            accounts.add(o);
        }
        doc.set("settings", Documents.settings(pool.settings()));
        doc.set("prices", Documents.prices(pool.prices()).get("prices"));
        // alert channels (W-1) join the document here, with their secrets sealed like the upstream keys
        if (!skipped.isEmpty()) {
            doc.set("skipped", skipped);
        }
        return doc;
    }

    private static ObjectNode group(AccountGroup g) {
        ObjectNode o = Documents.group(g);
        o.remove(NOT_EXPORTED_GROUP);
        return plain(o);
    }

    private static ObjectNode account(StoredAccount a) {
        ObjectNode o = Documents.account(a);
        o.remove(NOT_EXPORTED_ACCOUNT);
        return plain(o);
    }

    /** The document as a reader sees it (a POJO member such as a null quota becomes plain JSON), so it compares. */
    private static ObjectNode plain(ObjectNode o) {
        try {
            return (ObjectNode) Documents.JSON.readTree(o.toString());
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads {@code doc} against {@code pool}; {@code passphrase} opens sealed keys (null when none given). */
    static Reading read(JsonNode doc, String passphrase, Pool pool, LongFunction<String> apiKey) {
        if (!doc.isObject() || !doc.path("detour_export").isInt() || doc.path("detour_export").intValue() != VERSION) {
            throw new ValidationException("validation.import.detour_export", "detour_export",
                    "not a Detour pool document of version " + VERSION);
        }
        ArrayNode changes = Documents.JSON.createArrayNode();
        Map<String, Map<String, Integer>> counts = new LinkedHashMap<>();
        List<Item<GroupPatch>> groups = groups(doc, pool, changes, counts);
        List<Item<AccountPatch>> accounts = accounts(doc, keySeal(doc, passphrase), pool, apiKey, changes, counts);
        Map<String, String> settings = settings(doc, pool.settings(), changes, counts);
        List<PriceDraft> prices = prices(doc, pool.prices(), changes, counts);
        return new Reading(new PoolTransfer.Plan(groups, accounts, settings, prices, counts), changes);
    }

    private static List<Item<GroupPatch>> groups(JsonNode doc, Pool pool, ArrayNode changes,
            Map<String, Map<String, Integer>> counts) {
        Map<String, AccountGroup> byName = new LinkedHashMap<>();
        pool.groups().forEach(g -> byName.put(g.name(), g));
        Tally tally = new Tally();
        List<Item<GroupPatch>> items = new ArrayList<>();
        forEachObject(doc, "groups", (path, o) -> {
            String name = name(o, path);
            AccountGroup existing = byName.get(name);
            List<String> fields = existing == null ? null : differing(o, group(existing));
            if (tally.note(changes, "groups", name, fields)) {
                GroupPatch patch = pointed(path, name, () -> GroupJson.patch(o));
                items.add(new Item<>(path, name, existing == null ? null : existing.id(), patch));
            }
        });
        counts.put("groups", tally.counts());
        return items;
    }

    private static List<Item<AccountPatch>> accounts(JsonNode doc, PassphraseSeal seal, Pool pool,
            LongFunction<String> apiKey, ArrayNode changes, Map<String, Map<String, Integer>> counts) {
        Map<String, StoredAccount> byName = new LinkedHashMap<>();
        pool.accounts().forEach(a -> byName.put(a.config().name(), a));
        Tally tally = new Tally();
        List<Item<AccountPatch>> items = new ArrayList<>();
        forEachObject(doc, "accounts", (path, o) -> {
            String name = name(o, path);
            ObjectNode body = o.deepCopy();
            body.remove(SEALED_KEY);
            body.remove("api_key"); // a plain key is never read from a document
            if (o.has(SEALED_KEY)) {
                body.put("api_key", openKey(seal, o.get(SEALED_KEY), name, path));
            }
            StoredAccount existing = byName.get(name);
            if (existing == null && !body.has("api_key")) {
                throw new ValidationException("validation.import.accounts.api_key", path + ".api_key", name
                        + ": a new account needs its upstream key (export it with include_keys and a passphrase)");
            }
            List<String> fields = null;
            if (existing != null) {
                ObjectNode compared = body.deepCopy();
                compared.remove("api_key");
                fields = differing(compared, account(existing));
                if (body.has("api_key") && !body.get("api_key").asText().equals(apiKey.apply(existing.id()))) {
                    fields.add("api_key");
                }
            }
            if (tally.note(changes, "accounts", name, fields)) {
                AccountPatch patch = pointed(path, name, () -> AccountJson.patch(body));
                items.add(new Item<>(path, name, existing == null ? null : existing.id(), patch));
            }
        });
        counts.put("accounts", tally.counts());
        return items;
    }

    private static Map<String, String> settings(JsonNode doc, SettingValues current, ArrayNode changes,
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
        Tally tally = new Tally();
        if (settings != null) {
            tally.note(changes, "settings", "settings", new ArrayList<>(changed.keySet()));
        }
        counts.put("settings", tally.counts());
        return changed;
    }

    /** The merged price table (the document's models over the stored ones), or null when no model's price differs. */
    private static List<PriceDraft> prices(JsonNode doc, List<PriceEntry> current, ArrayNode changes,
            Map<String, Map<String, Integer>> counts) {
        Map<String, ObjectNode> stored = new LinkedHashMap<>();
        Documents.prices(current).get("prices").forEach(p -> stored.put(p.path("model").asText(), (ObjectNode) p));
        Map<String, JsonNode> merged = new LinkedHashMap<>(stored);
        Tally tally = new Tally();
        forEachObject(doc, "prices", (path, o) -> {
            String model = o.path("model").asText("");
            ObjectNode existing = stored.get(model);
            tally.note(changes, "prices", model, existing == null ? null : differing(o, existing));
            merged.put(model, o);
        });
        counts.put("prices", tally.counts());
        if (tally.create + tally.update == 0) {
            return null;
        }
        ObjectNode body = Documents.JSON.createObjectNode();
        merged.values().forEach(body.putArray("prices")::add);
        return pointed("prices", "prices", () -> SmartJson.prices(body));
    }

    /** Fields of {@code wanted} whose values differ from {@code stored} (fields {@code stored} lacks are not compared). */
    private static List<String> differing(JsonNode wanted, JsonNode stored) {
        List<String> fields = new ArrayList<>();
        for (Iterator<String> names = wanted.fieldNames(); names.hasNext();) {
            String name = names.next();
            if (stored.has(name) && !sameValue(wanted.get(name), stored.get(name))) {
                fields.add(name);
            }
        }
        return fields;
    }

    /** Numbers compare by value (1 and 1.0, int and long); everything else as JSON. */
    private static boolean sameValue(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        if (a.isObject() && b.isObject()) {
            return differing(a, b).isEmpty() && differing(b, a).isEmpty();
        }
        return a.equals(b);
    }

    private static PassphraseSeal keySeal(JsonNode doc, String passphrase) {
        JsonNode params = doc.get("key_protection");
        if (params == null || passphrase == null) {
            return null;
        }
        try {
            return PassphraseSeal.open(passphrase, Documents.JSON.treeToValue(params, PassphraseSeal.Params.class));
        } catch (PassphraseSeal.WrongPassphrase e) {
            throw new ValidationException("validation.import.passphrase", "passphrase", e.getMessage());
        } catch (IllegalArgumentException | com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new ValidationException("validation.import.key_protection", "key_protection",
                    "the document's key protection is not one Detour reads: " + e.getMessage());
        }
    }

    private static String openKey(PassphraseSeal seal, JsonNode sealed, String name, String path) {
        if (seal == null) {
            throw new ValidationException("validation.import.passphrase", "passphrase",
                    "the document carries sealed upstream keys: give the passphrase it was exported with");
        }
        try {
            return seal.open(sealed.asText(), name);
        } catch (PassphraseSeal.WrongPassphrase e) {
            throw new ValidationException("validation.import.accounts." + SEALED_KEY, path + "." + SEALED_KEY,
                    name + ": " + e.getMessage());
        }
    }

    private static String name(JsonNode o, String path) {
        JsonNode name = o.get(path.startsWith("prices") ? "model" : "name");
        if (name == null || !name.isTextual() || name.asText().isBlank()) {
            String section = path.replaceAll("\\[.*$", "");
            throw new ValidationException("validation.import." + section + ".name", path + ".name",
                    "every object in " + section + " needs its name");
        }
        return name.asText();
    }

    private interface ObjectAt {
        void accept(String path, ObjectNode object);
    }

    /** Each object of a section with its path; a section that is not a list of objects is refused, names once each. */
    private static void forEachObject(JsonNode doc, String section, ObjectAt work) {
        JsonNode items = doc.get(section);
        if (items == null) {
            return;
        }
        if (!items.isArray()) {
            throw new ValidationException("validation.import." + section, section, section + " must be a list");
        }
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < items.size(); i++) {
            String path = section + "[" + i + "]";
            if (!items.get(i).isObject()) {
                throw new ValidationException("validation.import." + section, path, path + " must be an object");
            }
            String name = name(items.get(i), path);
            if (!seen.add(name)) {
                throw new ValidationException("validation.import." + section + ".name", path + ".name",
                        name + " appears twice in " + section);
            }
            work.accept(path, (ObjectNode) items.get(i));
        }
    }

    private static <T> T pointed(String path, String name, java.util.function.Supplier<T> parse) {
        try {
            return parse.get();
        } catch (ValidationException e) {
            throw PoolTransfer.pointAt(path, name, e);
        }
    }

    /** create / update / unchanged counts of one section, and its lines in the diff. */
    private static final class Tally {
        int create;
        int update;
        int unchanged;

        /** {@code fields}: null for a new object. True when the object is to be written. */
        boolean note(ArrayNode changes, String section, String name, List<String> fields) {
            String action = fields == null ? "create" : fields.isEmpty() ? "unchanged" : "update";
            ObjectNode line = changes.addObject().put("section", section).put("name", name).put("action", action);
            if (fields != null && !fields.isEmpty()) {
                fields.forEach(line.putArray("fields")::add);
            }
            switch (action) {
                case "create" -> create++;
                case "update" -> update++;
                default -> unchanged++;
            }
            return !action.equals("unchanged");
        }

        Map<String, Integer> counts() {
            return PoolTransfer.counts(create, update, unchanged);
        }
    }
}
