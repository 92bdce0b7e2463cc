package dev.detour.adapter.db;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * the accounts of the embedded MariaDB. Detour's own user reaches its schema over TCP with a
 * generated password; every other account is local-socket-only or gone.
 */
final class DatabaseLockdown {
    static final String USER = "detour";
    /** 36 random bytes, URL-safe Base64 without padding: 48 characters, 288 bits. */
    private static final int PASSWORD_BYTES = 36;
    /** What {@link #newPassword()} yields; nothing else is ever put into the provisioning SQL. */
    private static final Pattern SAFE = Pattern.compile("[A-Za-z0-9_-]{32,}");
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*");
    private static final SecureRandom RANDOM = new SecureRandom();

    private DatabaseLockdown() {
    }

    static String newPassword() {
        byte[] bytes = new byte[PASSWORD_BYTES];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    /**
     * The statements run once, over the socket, while the server runs without grant tables and
     * without TCP (first start, a data dir of a version that never used grant tables, a reset).
     * FLUSH PRIVILEGES turns the grant tables on for account statements in this session.
     */
    static String provisioningSql(String database, String password) {
        if (!SAFE.matcher(password).matches() || !NAME.matcher(database).matches()) {
            throw new IllegalArgumentException("unexpected characters in a generated password or schema name");
        }
        String accounts = "'" + USER + "'@'127.0.0.1', '" + USER + "'@'localhost'";
        return String.join("\n",
                // proxy grants of accounts beyond localhost (install leaves root@<hostname>'s)
                "DELETE FROM mysql.proxies_priv WHERE Host <> 'localhost';",
                "FLUSH PRIVILEGES;",
                "CREATE DATABASE IF NOT EXISTS `" + database + "`;",
                // anonymous accounts, and every account that could sign in over TCP (root@127.0.0.1,
                // root@::1, root@<hostname>, ...) go; so do Detour's own, created anew below
                "SELECT IFNULL(CONCAT('DROP USER ', GROUP_CONCAT(CONCAT(QUOTE(User), '@', QUOTE(Host)))), 'DO 0')"
                        + " INTO @detour_drop FROM mysql.global_priv"
                        + " WHERE Host <> '' AND (User = '' OR Host <> 'localhost' OR User = '" + USER + "');",
                "EXECUTE IMMEDIATE @detour_drop;",
                // what is left at localhost (root, the OS user that installed) signs in through the
                // Unix socket as the OS user of the same name only: no password to guess, and the
                // socket's directory is owner-only; mariadb.sys stays as installed (locked)
                "SELECT IFNULL(CONCAT('ALTER USER ', GROUP_CONCAT(CONCAT(QUOTE(User), '@', QUOTE(Host),"
                        + " ' IDENTIFIED VIA unix_socket'))), 'DO 0')"
                        + " INTO @detour_local FROM mysql.global_priv"
                        + " WHERE Host = 'localhost' AND User NOT IN ('', 'mariadb.sys', '" + USER + "');",
                "EXECUTE IMMEDIATE @detour_local;",
                "CREATE USER '" + USER + "'@'127.0.0.1' IDENTIFIED BY '" + password + "', '"
                        + USER + "'@'localhost' IDENTIFIED BY '" + password + "';",
                // Flyway and the app create, alter and drop their own tables and indexes; the tests
                // drop and recreate the schema: everything on this schema, nothing beyond it
                "GRANT ALL PRIVILEGES ON `" + database + "`.* TO " + accounts + ";",
                "");
    }
}
