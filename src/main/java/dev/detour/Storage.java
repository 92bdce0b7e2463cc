package dev.detour;

import dev.detour.adapter.db.Database;
import dev.detour.adapter.db.EmbeddedMariaDb;
import dev.detour.config.DetourConfig;
import java.util.Optional;

/** The database: the embedded MariaDB when no URL is configured, else the configured server. */
record Storage(Optional<EmbeddedMariaDb> embedded, Database database) {

    static Storage open(DetourConfig config) {
        if (config.embeddedDatabase()) {
            EmbeddedMariaDb db = EmbeddedMariaDb.start(config.dataDir().resolve("mariadb"));
            return new Storage(Optional.of(db), Database.connect(db.jdbcUrl(), db.user(), db.password(), 20));
        }
        return new Storage(Optional.empty(), Database.connect(config.dbUrl().orElseThrow(),
                config.dbUser().orElse(null), config.dbPassword().orElse(null), 20));
    }

    /** The pool first, then the embedded server under it. */
    void close() {
        database.close();
        embedded.ifPresent(EmbeddedMariaDb::close);
    }
}
