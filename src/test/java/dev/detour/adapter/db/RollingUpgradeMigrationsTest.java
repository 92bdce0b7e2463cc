package dev.detour.adapter.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * G-6: during a rolling upgrade, instances of version N keep running on the schema N+1 migrated, so a
 * migration may only expand: add tables, add columns old code can ignore (nullable or with a default, so
 * its INSERTs that do not name them still work), add indexes. Dropping, renaming or retyping what N reads
 * or writes breaks it mid-roll. Such a contract step is allowed only with a {@code -- rolling-upgrade:}
 * comment on the statement saying why N does not use it (e.g. dropped one version after the code stopped
 * using it). Checked from the first migration written under this rule on.
 */
class RollingUpgradeMigrationsTest {
    /** Migrations up to this one landed before the rule was written down and checked. */
    private static final int CHECKED_FROM = 12;
    private static final Path SQL = Path.of("sql");
    private static final Pattern VERSION = Pattern.compile("V(\\d+)__.*\\.sql");
    private static final List<Pattern> CONTRACTING = List.of(
            Pattern.compile("\\bDROP\\s+(TABLE|COLUMN|INDEX|KEY|PRIMARY|FOREIGN)\\b"),
            Pattern.compile("\\bALTER\\s+TABLE\\s+\\S+\\s+(.*,\\s*)?DROP\\b"),
            Pattern.compile("\\bRENAME\\b"),
            Pattern.compile("\\b(CHANGE|MODIFY)\\s+(COLUMN\\s+)?\\S+"),
            Pattern.compile("\\bTRUNCATE\\b"));
    private static final Pattern ADD_COLUMN = Pattern.compile("\\bADD\\s+(COLUMN\\s+)?(IF\\s+NOT\\s+EXISTS\\s+)?[`\\w]+\\s+[^,]*");

    @Test
    void everyMigrationSinceTheRuleOnlyExpandsTheSchemaOrSaysWhyNotForARollingUpgrade() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path file : migrations()) {
            int version = version(file).orElseThrow();
            if (version < CHECKED_FROM) {
                continue;
            }
            for (String statement : statements(Files.readString(file))) {
                check(file.getFileName() + ": ", statement).ifPresent(problems::add);
            }
        }
        assertEquals(List.of(), problems, "a migration an instance one version older cannot run beside");
    }

    @Test
    void theCheckCatchesEachKindOfContractingStatement() {
        for (String bad : List.of("ALTER TABLE accounts DROP COLUMN weight",
                "ALTER TABLE accounts ADD COLUMN x INT NULL, DROP weight", "DROP TABLE old_things",
                "ALTER TABLE accounts RENAME COLUMN weight TO share", "ALTER TABLE accounts MODIFY weight BIGINT",
                "ALTER TABLE accounts CHANGE weight share INT", "ALTER TABLE request_events ADD COLUMN tier INT NOT NULL",
                "TRUNCATE TABLE request_events")) {
            assertTrue(check("", bad).isPresent(), bad);
        }
        for (String fine : List.of("ALTER TABLE request_events ADD COLUMN queued_ms INT NULL",
                "ALTER TABLE request_events ADD COLUMN usage_missing BOOLEAN NOT NULL DEFAULT FALSE",
                "CREATE TABLE t (id BIGINT NOT NULL PRIMARY KEY)", "CREATE INDEX ix ON t (a)",
                "-- rolling-upgrade: unused since V20 (two versions back)\nALTER TABLE t DROP COLUMN legacy")) {
            assertTrue(check("", fine).isEmpty(), fine);
        }
    }

    private static Optional<String> check(String where, String statement) {
        if (statement.contains("-- rolling-upgrade:")) {
            return Optional.empty(); // a contract step that says why the previous version does not mind
        }
        String sql = withoutComments(statement).toUpperCase().replaceAll("\\s+", " ").trim();
        if (sql.startsWith("CREATE TABLE") || sql.isEmpty()) {
            return Optional.empty(); // a new table: old code does not know it exists
        }
        for (Pattern p : CONTRACTING) {
            if (p.matcher(sql).find()) {
                return Optional.of(where + sql);
            }
        }
        Matcher add = ADD_COLUMN.matcher(sql);
        while (add.find()) {
            String column = add.group();
            if (column.contains("NOT NULL") && !column.contains("DEFAULT") && !column.contains("AUTO_INCREMENT")) {
                return Optional.of(where + sql + " (a NOT NULL column without a default fails the old version's inserts)");
            }
        }
        return Optional.empty();
    }

    private static List<Path> migrations() throws IOException {
        try (Stream<Path> files = Files.list(SQL)) {
            return files.filter(f -> version(f).isPresent()).sorted().toList();
        }
    }

    private static Optional<Integer> version(Path file) {
        Matcher m = VERSION.matcher(file.getFileName().toString());
        return m.matches() ? Optional.of(Integer.parseInt(m.group(1))) : Optional.empty();
    }

    /** Statements with the comment lines just above them kept (the marker lives there). */
    private static List<String> statements(String script) {
        List<String> statements = new ArrayList<>();
        for (String s : script.split(";")) {
            if (!withoutComments(s).isBlank()) {
                statements.add(s);
            }
        }
        return statements;
    }

    private static String withoutComments(String sql) {
        return sql.replaceAll("(?m)--.*$", "").replaceAll("(?s)/\\*.*?\\*/", "");
    }
}
