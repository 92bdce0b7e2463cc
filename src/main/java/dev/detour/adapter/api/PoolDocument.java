package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.adapter.crypto.PassphraseSeal;
import dev.detour.admin.port.AccountGroup;
import dev.detour.admin.port.BlockRuleEntry;
import dev.detour.admin.port.DetourKey;
import dev.detour.admin.PoolTransfer;
import dev.detour.admin.PoolTransfer.Item;
import dev.detour.admin.port.PriceEntry;
import dev.detour.admin.port.SettingValues;
import dev.detour.admin.port.StoredAccount;
import dev.detour.alerts.AlertChannel;
import dev.detour.alerts.AlertChannels;
import dev.detour.alerts.ChannelDraft;
import dev.detour.core.ValidationException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * W-2 pool document ({@code "detour_export": 1}): groups, accounts, settings, prices, block rules, key policies
 * and alert channels, each object known by its name (never an id), so a document moves between servers. Upstream
 * keys and channel secrets only when asked, sealed with a passphrase ({@link PassphraseSeal}); Detour key secrets
 * never. Reading a document compares it with the pool as it is now, section by section, into a
 * {@link PoolTransfer.Plan}, the alert channels to write, and a diff of what each object would do.
 */
final class PoolDocument {
    static final int VERSION = 1;

    /** The pool as stored, as the document holds it. */
    record Pool(List<AccountGroup> groups, List<StoredAccount> accounts, SettingValues settings,
            List<PriceEntry> prices, List<BlockRuleEntry> blocks, List<DetourKey> keys, List<AlertChannel> channels) {
    }

    /** A read document: what to write in the pool's transaction, the channels to write after it, and the diff. */
    record Reading(PoolTransfer.Plan plan, List<Item<ChannelDraft>> channels, ArrayNode changes) {
    }

    private PoolDocument() {
    }

    /**
     * What the document leaves out is named under {@code skipped}: archived accounts and what cannot be read
     * (D-4), block rules on such accounts. {@code apiKey}: the plain key by account id; {@code seal} null leaves
     * upstream keys and channel secrets out.
     */
    static ObjectNode export(Pool pool, LongFunction<String> apiKey, PassphraseSeal seal, Instant at) {
        ObjectNode doc = Documents.JSON.createObjectNode().put("detour_export", VERSION).put("exported_at", at.toString());
        if (seal != null) {
            doc.set("key_protection", Documents.JSON.valueToTree(seal.params()));
        }
        ArrayNode skipped = Documents.JSON.createArrayNode();
        AccountsSection.exportGroups(pool.groups(), doc);
        AccountsSection.exportAccounts(pool.accounts(), apiKey, seal, doc, skipped);
        RulesSection.export(pool, doc, skipped);
        KeysSection.export(pool.keys(), pool.groups(), doc, skipped);
        ChannelsSection.export(pool.channels(), seal, doc);
        if (!skipped.isEmpty()) {
            doc.set("skipped", skipped);
        }
        return doc;
    }

    /** Reads {@code doc} against {@code pool}; {@code passphrase} opens sealed keys (null when none given). */
    static Reading read(JsonNode doc, String passphrase, Pool pool, LongFunction<String> apiKey,
            AlertChannels channelRules) {
        if (!doc.isObject() || !doc.path("detour_export").isInt() || doc.path("detour_export").intValue() != VERSION) {
            throw new ValidationException("validation.import.detour_export", "detour_export",
                    "not a Detour pool document of version " + VERSION);
        }
        ArrayNode changes = Documents.JSON.createArrayNode();
        Map<String, Map<String, Integer>> counts = new LinkedHashMap<>();
        PassphraseSeal seal = keySeal(doc, passphrase);
        PoolTransfer.Plan plan = new PoolTransfer.Plan(
                AccountsSection.readGroups(doc, pool.groups(), changes, counts),
                AccountsSection.readAccounts(doc, seal, pool.accounts(), apiKey, changes, counts),
                RulesSection.readSettings(doc, pool.settings(), changes, counts),
                RulesSection.readPrices(doc, pool.prices(), changes, counts),
                RulesSection.readBlocks(doc, pool, changes, counts),
                KeysSection.read(doc, pool.keys(), pool.groups(), changes, counts), counts);
        List<Item<ChannelDraft>> channels = ChannelsSection.read(doc, seal, pool.channels(), channelRules, changes,
                counts);
        return new Reading(plan, channels, changes);
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

    /**
     * Opens one sealed value bound to {@code boundTo}; without a passphrase, or when it does not open, refused
     * ({@code code} and {@code field} point at the sealed value, the message names the object).
     */
    static String unseal(PassphraseSeal seal, JsonNode sealed, String boundTo, String code, String field,
            String name) {
        if (seal == null) {
            throw new ValidationException("validation.import.passphrase", "passphrase",
                    "the document carries sealed upstream keys: give the passphrase it was exported with");
        }
        try {
            return seal.open(sealed.asText(), boundTo);
        } catch (PassphraseSeal.WrongPassphrase e) {
            throw new ValidationException(code, field, name + ": " + e.getMessage());
        }
    }
}
