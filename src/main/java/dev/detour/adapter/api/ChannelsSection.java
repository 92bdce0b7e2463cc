package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.adapter.crypto.PassphraseSeal;
import dev.detour.admin.PoolTransfer.Item;
import dev.detour.alerts.AlertChannel;
import dev.detour.alerts.AlertChannels;
import dev.detour.alerts.ChannelDraft;
import dev.detour.alerts.ChannelKind;
import dev.detour.core.ValidationException;
import dev.detour.core.alerts.AlertKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * W-2 alert channels (W-1) of a pool document: kind, events, suppression and plain settings always; their
 * secrets (webhook URLs with tokens, bot tokens, signing secrets, the SMTP password) only when the upstream keys
 * are asked for, sealed with the same passphrase and bound to the channel and the field. Without them an import
 * keeps a channel's stored secrets, and a new channel that needs one is refused like a new account without its key.
 */
final class ChannelsSection {
    static final String SECTION = "alert_channels";
    private static final String SEALED = "secrets_sealed";

    private ChannelsSection() {
    }

    static void export(List<AlertChannel> channels, PassphraseSeal seal, ObjectNode doc) {
        ArrayNode out = doc.putArray(SECTION);
        for (AlertChannel c : channels) {
            ObjectNode o = channel(c);
            if (seal != null && !c.secrets().isEmpty()) {
                ObjectNode sealed = o.putObject(SEALED);
                c.secrets().forEach((field, value) -> sealed.put(field, seal.seal(value, boundTo(c.name(), field))));
            }
            out.add(o);
        }
    }

    /** The channel without its secrets, every plain setting of its kind present (null when unset). */
    private static ObjectNode channel(AlertChannel c) {
        ObjectNode o = Documents.JSON.createObjectNode().put("name", c.name()).put("kind", c.kind().wire())
                .put("enabled", c.enabled()).put("suppress_seconds", c.suppress().toSeconds());
        ArrayNode events = o.putArray("events");
        c.events().stream().map(AlertKind::wire).sorted().forEach(events::add);
        c.kind().settings().forEach(field -> o.put(field, c.setting(field)));
        return o;
    }

    private static String boundTo(String channel, String field) {
        return "alert_channel " + channel + " " + field;
    }

    /** Channels to create (no id) or update, each checked as {@link AlertChannels} would check it. */
    static List<Item<ChannelDraft>> read(JsonNode doc, PassphraseSeal seal, List<AlertChannel> stored,
            AlertChannels rules, ArrayNode changes, Map<String, Map<String, Integer>> counts) {
        Map<String, AlertChannel> byName = DocumentDiff.byName(stored, AlertChannel::name);
        DocumentDiff.Tally tally = new DocumentDiff.Tally(changes, SECTION);
        List<Item<ChannelDraft>> items = new ArrayList<>();
        DocumentDiff.forEachObject(doc, SECTION, (path, name, o) -> {
            Map<String, String> secrets = secrets(o, seal, name, path);
            ObjectNode plain = o.deepCopy();
            plain.remove(SEALED);
            AlertChannel existing = byName.get(name);
            List<String> fields = null;
            if (existing != null) {
                fields = DocumentDiff.differing(plain, channel(existing));
                for (Map.Entry<String, String> s : secrets.entrySet()) {
                    if (!s.getValue().equals(existing.secret(s.getKey()))) {
                        fields.add(s.getKey());
                    }
                }
            }
            if (tally.note(name, fields)) {
                ChannelDraft draft = DocumentDiff.pointed(path, name, () -> draft(plain, secrets));
                DocumentDiff.pointed(path, name, () -> rules.checked(existing, draft));
                items.add(new Item<>(path, name, existing == null ? null : existing.id(), draft));
            }
        });
        tally.into(counts);
        return items;
    }

    private static Map<String, String> secrets(ObjectNode o, PassphraseSeal seal, String name, String path) {
        Map<String, String> out = new LinkedHashMap<>();
        JsonNode sealed = o.get(SEALED);
        if (sealed == null) {
            return out;
        }
        if (!sealed.isObject()) {
            throw new ValidationException("validation.import.alert_channels." + SEALED, path + "." + SEALED,
                    name + ": " + SEALED + " must be an object of sealed fields");
        }
        sealed.fields().forEachRemaining(e -> out.put(e.getKey(), PoolDocument.unseal(seal, e.getValue(),
                boundTo(name, e.getKey()), "validation.import.alert_channels." + SEALED,
                path + "." + SEALED + "." + e.getKey(), name)));
        return out;
    }

    /** The channel's own fields as given (a null setting is left as stored), and its opened secrets. */
    private static ChannelDraft draft(ObjectNode o, Map<String, String> secrets) {
        JsonFields f = new JsonFields(o, "");
        String kind = f.text("kind", "validation.kind");
        Map<String, String> fields = new LinkedHashMap<>();
        if (kind != null) {
            for (String field : ChannelKind.fromWire(kind).settings()) {
                JsonNode v = o.get(field);
                if (v != null && !v.isNull()) {
                    fields.put(field, v.asText());
                }
            }
        }
        fields.putAll(secrets);
        return new ChannelDraft(f.text("name", "validation.name"), kind, f.bool("enabled", "validation.enabled"),
                f.has("events") ? f.texts("events", "validation.events") : null,
                f.integer("suppress_seconds", "validation.suppress_seconds"), fields);
    }
}
