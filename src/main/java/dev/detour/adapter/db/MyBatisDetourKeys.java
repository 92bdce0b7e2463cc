package dev.detour.adapter.db;

import dev.detour.admin.port.DetourKey;
import dev.detour.admin.port.DetourKeys;
import java.time.Instant;
import java.util.List;

/** {@link DetourKeys} in {@code detour_keys}, inside the caller's session. */
record MyBatisDetourKeys(KeyMapper mapper) implements DetourKeys {
    @Override
    public List<DetourKey> all() {
        return mapper.selectAll();
    }

    @Override
    public DetourKey byId(long id) {
        return mapper.selectById(id);
    }

    @Override
    public long insert(DetourKey draft) {
        mapper.insert(draft);
        return mapper.selectLastInsertId();
    }

    @Override
    public void update(DetourKey key) {
        mapper.update(key);
    }

    @Override
    public void replaceSecret(long id, String keyHash, String keyHint, Instant now) {
        mapper.updateSecret(id, keyHash, keyHint, now);
    }

    @Override
    public void delete(long id) {
        mapper.deleteById(id);
    }
}
