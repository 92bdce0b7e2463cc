package dev.detour.admin.port;

import java.time.Instant;
import java.util.List;

/** The Detour keys store (K-1). */
public interface DetourKeys {
    /** Id order. */
    List<DetourKey> all();

    /** Null when no such key. */
    DetourKey byId(long id);

    /** The new key's id. */
    long insert(DetourKey draft);

    /** Name, owner label, enabled, expiry and policy; the secret stays. */
    void update(DetourKey key);

    /** K-1 rotate: the old secret stops working as its hash is replaced. */
    void replaceSecret(long id, String keyHash, String keyHint, Instant now);

    void delete(long id);
}
