package dev.detour.adapter.db;

import dev.detour.adapter.crypto.AdminToken;
import dev.detour.admin.FirstRunNotice;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Establishes the admin API token (SPEC §9, O-1): {@code DETOUR_ADMIN_TOKEN} when set; otherwise
 * the digest stored in {@code settings}; otherwise a new random token whose SHA-256 is stored (so
 * it survives restarts and is shared by every instance) and which is printed once on standard output, never to the log.
 */
public final class AdminTokenBootstrap {
    private static final Logger log = LoggerFactory.getLogger(AdminTokenBootstrap.class);

    private AdminTokenBootstrap() {
    }

    public static AdminToken establish(Optional<String> configured, Database database, Clock clock) {
        if (configured.isPresent()) {
            return AdminToken.ofPlain(configured.get());
        }
        String stored = database.read(s -> s.getMapper(AdminTokenMapper.class).selectDigest());
        if (stored != null) {
            return AdminToken.ofHexDigest(stored);
        }
        String token = AdminToken.generate();
        int inserted = database.read(s -> s.getMapper(AdminTokenMapper.class)
                .insertDigest(new AdminTokenRow(AdminToken.hexDigestOf(token), clock.instant())));
        if (inserted == 0) {
            // another instance generated one at the same moment: theirs wins, ours is never shown
            return AdminToken.ofHexDigest(database.read(s -> s.getMapper(AdminTokenMapper.class).selectDigest()));
        }
        log.warn("First run: generated the admin API token; it is printed on standard output once");
        FirstRunNotice.show("FIRST RUN: generated the admin API token (shown only this once; store it now, "
                + "or set DETOUR_ADMIN_TOKEN): " + token);
        return AdminToken.ofPlain(token);
    }
}
