package dev.detour.adapter.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * G-4: no statement Galera refuses or replicates wrongly, in the migrations and in every SQL text of the code
 * (Java string literals, MyBatis mappers): {@code LOCK TABLES}, {@code GET_LOCK}/{@code RELEASE_LOCK} (not
 * replicated: a lock on one node only), a non-InnoDB engine, a created table without a primary key. The migrated
 * schema itself is checked on the cluster too (MigrationsOnGaleraIT).
 */
class GaleraStatementsTest {
    private static final List<Pattern> REFUSED = List.of(
            Pattern.compile("\\bLOCK\\s+TABLES?\\b", Pattern.CASE_INSENSITIVE),
            Pattern.compile("\\b(GET|RELEASE)_LOCK\\s*\\(", Pattern.CASE_INSENSITIVE),
            Pattern.compile("\\bENGINE\\s*=\\s*(?!InnoDB\\b)\\w+", Pattern.CASE_INSENSITIVE));
    private static final Pattern CREATE_TABLE = Pattern.compile("\\bCREATE\\s+TABLE\\b", Pattern.CASE_INSENSITIVE);
    /** Unrolled and possessive: an alternation inside a repeated group recursed once per character (stack overflow). */
    private static final Pattern STRING_LITERAL = Pattern.compile("\"[^\"\\\\]*+(?:\\\\.[^\"\\\\]*+)*+\"");

    @Test
    void noMigrationLocksTablesUsesAnotherEngineOrCreatesATableWithoutAPrimaryKey() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path file : files(Path.of("sql"), ".sql")) {
            for (String statement : withoutComments(Files.readString(file)).split(";")) {
                check(file.getFileName() + ": ", statement).forEach(problems::add);
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void noSqlInTheCodeLocksTablesOrTakesANamedLock() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Path file : files(Path.of("src/main/java"), ".java")) {
            var literals = STRING_LITERAL.matcher(Files.readString(file));
            StringBuilder sql = new StringBuilder(); // the literals only: comments may name what is avoided
            while (literals.find()) {
                sql.append(literals.group()).append('\n');
            }
            check(file.getFileName() + ": ", sql.toString()).forEach(problems::add);
        }
        for (Path file : files(Path.of("src/main/java"), ".xml")) {
            check(file.getFileName() + ": ", Files.readString(file).replaceAll("(?s)<!--.*?-->", ""))
                    .forEach(problems::add);
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void theCheckCatchesEachRefusedStatement() {
        for (String bad : List.of("LOCK TABLES accounts WRITE", "SELECT GET_LOCK('detour', 10)",
                "DO RELEASE_LOCK('x')", "CREATE TABLE t (id INT NOT NULL PRIMARY KEY) ENGINE=MyISAM",
                "CREATE TABLE t (id INT NOT NULL, name VARCHAR(9))")) {
            assertTrue(!check("", bad).isEmpty(), bad);
        }
        for (String fine : List.of("CREATE TABLE t (id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY) ENGINE=InnoDB",
                "CREATE TABLE IF NOT EXISTS t (a INT NOT NULL, b INT NOT NULL, PRIMARY KEY (a, b))",
                "SELECT id FROM accounts WHERE id = ? FOR UPDATE", "UPDATE accounts SET blocked = 1")) {
            assertEquals(List.of(), check("", fine), fine);
        }
    }

    private static List<String> check(String where, String sql) {
        List<String> problems = new ArrayList<>();
        for (Pattern p : REFUSED) {
            var m = p.matcher(sql);
            while (m.find()) {
                problems.add(where + m.group());
            }
        }
        var create = CREATE_TABLE.matcher(sql);
        while (create.find()) {
            int end = sql.indexOf(';', create.start());
            String table = sql.substring(create.start(), end < 0 ? sql.length() : end);
            if (!table.toUpperCase().contains("PRIMARY KEY")) {
                problems.add(where + "no primary key: " + table.lines().findFirst().orElse(table));
            }
        }
        return problems;
    }

    private static List<Path> files(Path root, String suffix) throws IOException {
        try (Stream<Path> walk = Files.walk(root)) {
            return walk.filter(f -> f.toString().endsWith(suffix)).sorted().toList();
        }
    }

    private static String withoutComments(String sql) {
        return sql.replaceAll("(?m)--.*$", "").replaceAll("(?s)/\\*.*?\\*/", "");
    }
}
