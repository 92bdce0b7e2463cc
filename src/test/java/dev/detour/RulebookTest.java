package dev.detour;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * docs/rules.md is the rulebook the comments cite ("// C-4': …"): every rule id cited anywhere in src/, sql/,
 * bench/, docs/ or the README must have exactly one entry there, so a reader of the repository alone can look
 * each one up.
 */
class RulebookTest {
    private static final Path RULEBOOK = Path.of("docs/rules.md");
    private static final List<Path> CITING_TREES =
            List.of(Path.of("src"), Path.of("sql"), Path.of("bench"), Path.of("docs"), Path.of("README.md"));
    private static final Set<String> TEXT_FILES = Set.of(
            "java", "properties", "html", "js", "mjs", "css", "sql", "md", "xml", "json", "sh", "lua", "txt");

    /** The prefixes of SPEC's rule families: P F C S R K E U A O N X (first wave), D G B L W (§12). */
    private static final String PREFIXES = "PFCSRKEUAONXDGBLW";

    /**
     * A rule id as cited: a known prefix letter standing alone (not the tail of a word, so "UTF-8", "SHA-256",
     * "ISO-8601", "AES-256" never match), a hyphen, a number without a leading zero that is not followed by a
     * letter or digit ("C-3PO" is not an id), and an optional prime ("P-8'", a §12 revision) that is not the
     * start of a possessive ("S-6's" cites S-6). Header names such as "X-Forwarded-For" have no number.
     */
    static final Pattern CITATION = Pattern.compile(
            "(?<![A-Za-z0-9_-])([" + PREFIXES + "]-[1-9][0-9]*)('(?![A-Za-z]))?(?![A-Za-z0-9_])");

    /** A definition in the rulebook: {@code ### P-8' — Client-facing status by cause}. */
    private static final Pattern DEFINITION = Pattern.compile("^### ([A-Z]-[0-9]+'?) — (\\S.*)$", Pattern.MULTILINE);
    private static final Pattern ANY_H3 = Pattern.compile("^### .*$", Pattern.MULTILINE);
    private static final Pattern ID_FORMAT = Pattern.compile("[" + PREFIXES + "]-[1-9][0-9]*'?");

    @Test
    void everyRuleIdCitedInTheRepositoryIsDefinedInTheRulebook() throws IOException {
        Set<String> defined = new TreeSet<>(definitions(Files.readString(RULEBOOK)));
        Map<String, String> undefined = new TreeMap<>();
        for (Map.Entry<String, Path> cited : citedIds().entrySet()) {
            if (!defined.contains(cited.getKey())) {
                undefined.put(cited.getKey(), "cited in " + cited.getValue() + " but not defined in " + RULEBOOK);
            }
        }
        assertEquals(Map.of(), undefined);
    }

    @Test
    void theRulebookDefinesEachIdOnce() throws IOException {
        List<String> ids = definitions(Files.readString(RULEBOOK));
        List<String> twice = ids.stream().filter(id -> ids.indexOf(id) != ids.lastIndexOf(id)).distinct().toList();
        assertEquals(List.of(), twice, "ids defined more than once in " + RULEBOOK);
    }

    @Test
    void everyIdTheRulebookDefinesIsARuleIdOfAKnownFamilyWithAStatement() throws IOException {
        String rulebook = Files.readString(RULEBOOK);
        List<String> malformed = new ArrayList<>();
        Matcher heading = ANY_H3.matcher(rulebook);
        while (heading.find()) {
            Matcher definition = DEFINITION.matcher(heading.group());
            if (!definition.matches() || !ID_FORMAT.matcher(definition.group(1)).matches()) {
                malformed.add(heading.group() + " (expected \"### X-n — title\" with a known prefix)");
                continue;
            }
            int bodyStart = heading.end();
            int next = rulebook.indexOf("\n#", bodyStart);
            String body = rulebook.substring(bodyStart, next < 0 ? rulebook.length() : next).strip();
            if (body.isEmpty()) {
                malformed.add(heading.group() + " (states no rule)");
            }
        }
        assertEquals(List.of(), malformed);
    }

    @Test
    void eachFamilyIsNumberedWithoutGapsAndEveryRevisionHasItsOriginal() throws IOException {
        Set<String> defined = new TreeSet<>(definitions(Files.readString(RULEBOOK)));
        assertTrue(defined.size() >= 84, "the rulebook states every SPEC id (84+), found " + defined.size());
        List<String> missing = new ArrayList<>();
        for (char prefix : PREFIXES.toCharArray()) {
            int highest = defined.stream()
                    .filter(id -> id.charAt(0) == prefix)
                    .mapToInt(id -> Integer.parseInt(id.substring(2).replace("'", "")))
                    .max().orElse(0);
            for (int n = 1; n < highest; n++) {
                if (!defined.contains(prefix + "-" + n)) {
                    missing.add(prefix + "-" + n);
                }
            }
        }
        defined.stream().filter(id -> id.endsWith("'"))
                .map(id -> id.substring(0, id.length() - 1))
                .filter(original -> !defined.contains(original))
                .forEach(missing::add);
        assertEquals(List.of(), missing);
    }

    @Test
    void theCitationPatternTellsRuleIdsFromLookalikes() {
        String text = "UTF-8, SHA-256, AES-256-GCM, ISO-8601, X-Forwarded-For, C-3PO, 0xE-1f, sk-1234, P-08,"
                + " then P-8' and S-6's conversation id, N-10, X-1…X-7, \"C-4'\": done (F-4).";
        List<String> found = new ArrayList<>();
        Matcher m = CITATION.matcher(text);
        while (m.find()) {
            found.add(id(m));
        }
        assertEquals(List.of("P-8'", "S-6", "N-10", "X-1", "X-7", "C-4'", "F-4"), found);
        assertFalse(CITATION.matcher("Retry-After x-api-key T-1 Q-2").find(), "unknown prefixes and headers are no ids");
    }

    private static String id(Matcher citation) {
        return citation.group(1) + (citation.group(2) == null ? "" : "'");
    }

    private static List<String> definitions(String rulebook) {
        List<String> ids = new ArrayList<>();
        Matcher m = DEFINITION.matcher(rulebook);
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }

    /** Each cited id with the first file citing it (the rulebook itself excluded). */
    private static Map<String, Path> citedIds() throws IOException {
        Map<String, Path> cited = new TreeMap<>();
        for (Path tree : CITING_TREES) {
            if (!Files.exists(tree)) {
                continue;
            }
            try (Stream<Path> files = Files.walk(tree)) {
                for (Path file : files.filter(Files::isRegularFile).filter(RulebookTest::isText).sorted().toList()) {
                    if (file.normalize().equals(RULEBOOK.normalize())) {
                        continue;
                    }
                    Matcher m = CITATION.matcher(Files.readString(file));
                    while (m.find()) {
                        cited.putIfAbsent(id(m), file);
                    }
                }
            }
        }
        assertFalse(cited.isEmpty(), "found the citing sources (run from the repository root)");
        return cited;
    }

    private static boolean isText(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return dot > 0 && TEXT_FILES.contains(name.substring(dot + 1));
    }
}
