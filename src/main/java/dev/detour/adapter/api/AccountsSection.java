package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.adapter.crypto.PassphraseSeal;
import dev.detour.admin.port.AccountGroup;
import dev.detour.admin.port.AccountPatch;
import dev.detour.admin.GroupPatch;
import dev.detour.admin.PoolTransfer.Item;
import dev.detour.admin.port.StoredAccount;
import dev.detour.core.ValidationException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongFunction;

/**
 * W-2 groups and accounts of a pool document. An account's upstream key travels only sealed with the export's
 * passphrase and bound to the account's name; a plain key is never read from a document.
 */
final class AccountsSection {
    private static final Set<String> NOT_EXPORTED_GROUP = Set.of("id", "created_at", "updated_at", "config_error");
    private static final Set<String> NOT_EXPORTED_ACCOUNT = Set.of("id", "group_id", "api_key_hint", "archived",
            "revision", "created_at", "updated_at", "config_error");
    private static final String SEALED_KEY = "api_key_sealed";

    private AccountsSection() {
    }

    static void exportGroups(List<AccountGroup> groups, ObjectNode doc) {
        ArrayNode out = doc.putArray("groups");
        groups.forEach(g -> out.add(group(g)));
    }

    /**
     * Archived accounts and accounts whose stored config cannot be read (D-4) are left out (named in
     * {@code skipped}). {@code apiKey}: the plain key by account id; {@code seal} null leaves keys out.
     */
    static void exportAccounts(List<StoredAccount> accounts, LongFunction<String> apiKey, PassphraseSeal seal,
            ObjectNode doc, ArrayNode skipped) {
        ArrayNode out = doc.putArray("accounts");
        for (StoredAccount a : accounts) {
            if (a.account().archived() || a.configError()) {
                skipped.add(a.config().name());
                continue;
            }
            ObjectNode o = account(a);
            if (seal != null) {
                o.put(SEALED_KEY, seal.seal(apiKey.apply(a.id()), a.config().name()));
            }
            out.add(o);
        }
    }

    private static ObjectNode group(AccountGroup g) {
        ObjectNode o = Documents.group(g);
        o.remove(NOT_EXPORTED_GROUP);
        return DocumentDiff.plain(o);
    }

    private static ObjectNode account(StoredAccount a) {
        ObjectNode o = Documents.account(a);
        o.remove(NOT_EXPORTED_ACCOUNT);
        return DocumentDiff.plain(o);
    }

    static List<Item<GroupPatch>> readGroups(JsonNode doc, List<AccountGroup> stored, ArrayNode changes,
            Map<String, Map<String, Integer>> counts) {
        Map<String, AccountGroup> byName = DocumentDiff.byName(stored, AccountGroup::name);
        DocumentDiff.Tally tally = new DocumentDiff.Tally(changes, "groups");
        List<Item<GroupPatch>> items = new ArrayList<>();
        DocumentDiff.forEachObject(doc, "groups", (path, name, o) -> {
            AccountGroup existing = byName.get(name);
            if (tally.note(name, existing == null ? null : DocumentDiff.differing(o, group(existing)))) {
                GroupPatch patch = DocumentDiff.pointed(path, name, () -> GroupJson.patch(o));
                items.add(new Item<>(path, name, existing == null ? null : existing.id(), patch));
            }
        });
        tally.into(counts);
        return items;
    }

    /** {@code seal} opens the sealed keys (null when the import gave no passphrase). */
    static List<Item<AccountPatch>> readAccounts(JsonNode doc, PassphraseSeal seal, List<StoredAccount> stored,
            LongFunction<String> apiKey, ArrayNode changes, Map<String, Map<String, Integer>> counts) {
        Map<String, StoredAccount> byName = DocumentDiff.byName(stored, a -> a.config().name());
        DocumentDiff.Tally tally = new DocumentDiff.Tally(changes, "accounts");
        List<Item<AccountPatch>> items = new ArrayList<>();
        DocumentDiff.forEachObject(doc, "accounts", (path, name, o) -> {
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
                fields = DocumentDiff.differing(compared, account(existing));
                if (body.has("api_key") && !body.get("api_key").asText().equals(apiKey.apply(existing.id()))) {
                    fields.add("api_key");
                }
            }
            if (tally.note(name, fields)) {
                AccountPatch patch = DocumentDiff.pointed(path, name, () -> AccountJson.patch(body));
                items.add(new Item<>(path, name, existing == null ? null : existing.id(), patch));
            }
        });
        tally.into(counts);
        return items;
    }

    private static String openKey(PassphraseSeal seal, JsonNode sealed, String name, String path) {
        return PoolDocument.unseal(seal, sealed, name, "validation.import.accounts." + SEALED_KEY,
                path + "." + SEALED_KEY, name);
    }
}
