package dev.detour.admin;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.admin.port.AccountGroup;
import dev.detour.admin.port.Changes;
import dev.detour.admin.port.DetourKey;
import dev.detour.admin.port.DetourKeys;
import dev.detour.admin.port.Groups;
import dev.detour.admin.port.Transactions;
import dev.detour.core.ValidationException;
import dev.detour.core.secret.SecretMask;
import dev.detour.gateway.wire.KeyHashes;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Detour key use cases (SPEC §1, K-1): the key is {@code dtr-} + 32 random bytes (url-safe
 * base64), shown once at creation and stored only as its SHA-256. Every change is audited.
 */
public final class KeyAdmin {
    public record CreatedKey(DetourKey stored, String key) {
    }

    private static final SecureRandom RANDOM = new SecureRandom();
    private final Transactions transactions;
    private final AuditLog audit;
    private final Clock clock;

    public KeyAdmin(Transactions transactions, AuditLog audit, Clock clock) {
        this.transactions = transactions;
        this.audit = audit;
        this.clock = clock;
    }

    public List<DetourKey> list() {
        return transactions.read(c -> c.keys().all());
    }

    public DetourKey get(long id) {
        return NotFoundException.unlessMissing(transactions.read(c -> c.keys().byId(id)), "key", id);
    }

    /** A new key from {@code patch}: the name is required; enabled unless sent otherwise. */
    public CreatedKey create(String actor, KeyPatch patch) {
        String key = newKey();
        Instant now = clock.instant();
        return transactions.inTransaction(c -> {
            ObjectNode policy = patch.policy().document(AdminJson.JSON.createObjectNode(), groupIds(c.groups()));
            DetourKey draft = new DetourKey(null, name(patch, null), patch.ownerLabel().orElse(null),
                    KeyHashes.sha256Hex(key), hint(key), patch.enabled().orElse(true), patch.expiresAt().orElse(null),
                    json(policy), 0, now, now, null);
            DetourKeys keys = c.keys();
            DetourKey created = keys.byId(keys.insert(draft));
            changed(c, actor, "key.create", created.id(), null, created);
            return new CreatedKey(created, key);
        });
    }

    /** {@code patch} over the stored key; the stored policy is checked with it (an invalid stored field refuses). */
    public DetourKey update(String actor, long id, KeyPatch patch) {
        return transactions.inTransaction(c -> {
            DetourKeys keys = c.keys();
            DetourKey before = existing(keys, id);
            ObjectNode policy = patch.policy().document(KeyPolicies.storedDocument(before.policyJson()),
                    groupIds(c.groups()));
            DetourKey after = new DetourKey(id, name(patch, before.name()), patch.ownerLabel().orElse(before.ownerLabel()),
                    before.keyHash(), before.keyHint(), patch.enabled().orElse(before.enabled()),
                    patch.expiresAt().orElse(before.expiresAt()), json(policy),
                    before.spentMicros(), before.createdAt(), clock.instant(), before.lastUsedAt());
            keys.update(after);
            DetourKey stored = keys.byId(id);
            changed(c, actor, "key.update", id, before, stored);
            return stored;
        });
    }

    public void delete(String actor, long id) {
        transactions.inTransaction(c -> {
            DetourKeys keys = c.keys();
            DetourKey before = existing(keys, id);
            keys.delete(id);
            changed(c, actor, "key.delete", id, before, null);
            return null;
        });
    }

    /** K-1 rotate: a new secret, shown once; the old one stops working at once (its hash is gone). */
    public CreatedKey rotate(String actor, long id) {
        String key = newKey();
        return transactions.inTransaction(c -> {
            DetourKeys keys = c.keys();
            DetourKey before = existing(keys, id);
            keys.replaceSecret(id, KeyHashes.sha256Hex(key), hint(key), clock.instant());
            DetourKey after = keys.byId(id);
            changed(c, actor, "key.rotate", id, before, after);
            return new CreatedKey(after, key);
        });
    }

    /** D-4: ids of the keys whose stored policy cannot be read (refused with key.config_error). */
    public static Set<Long> unreadable(List<DetourKey> keys) {
        return keys.stream().filter(k -> KeyPolicies.readStored(k.policyJson()).isEmpty()).map(DetourKey::id)
                .collect(Collectors.toSet());
    }

    private void changed(Changes c, String actor, String action, long id, DetourKey before, DetourKey after) {
        audit.record(c, actor, action, "key", id, audit.documents().key(before), audit.documents().key(after));
        c.bumpPoolRevision();
    }

    private static DetourKey existing(DetourKeys keys, long id) {
        return NotFoundException.unlessMissing(keys.byId(id), "key", id);
    }

    private static Map<String, Long> groupIds(Groups groups) {
        Map<String, Long> ids = new HashMap<>();
        for (AccountGroup g : groups.all()) {
            ids.put(g.name(), g.id());
        }
        return ids;
    }

    static String newKey() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return "dtr-" + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /** {@code dtr-…abcd}: the one masking format of X-5 ({@link SecretMask#hint}). */
    static String hint(String key) {
        return SecretMask.hint(key);
    }

    private static String name(KeyPatch patch, String current) {
        String name = patch.name().orElse(current);
        if (name == null) {
            throw new ValidationException("validation.name", "name", "name is required");
        }
        return name;
    }

    private static String json(Object node) {
        try {
            return AdminJson.JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
