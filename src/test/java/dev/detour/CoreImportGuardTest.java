package dev.detour;

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

/** ARCHITECTURE.md: core/ is pure — JDK only (no java.net, java.sql, files), and never reads a clock. */
class CoreImportGuardTest {
    private static final Path CORE = Path.of("src/main/java/dev/detour/core");
    private static final Pattern IMPORT = Pattern.compile("^import\\s+(static\\s+)?([\\w.]+)", Pattern.MULTILINE);
    private static final Pattern CLOCK_READ = Pattern.compile(
            "Instant\\.now\\(|Clock\\.system|System\\.currentTimeMillis|System\\.nanoTime|LocalDateTime\\.now\\(|LocalTime\\.now\\(|ZonedDateTime\\.now\\(");

    @Test
    void coreImportsOnlyPureJdkAndNeverReadsTheClock() throws IOException {
        assertTrue(Files.isDirectory(CORE), "core/ exists");
        List<String> violations = new ArrayList<>();
        try (Stream<Path> files = Files.walk(CORE)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String source = Files.readString(file);
                var imports = IMPORT.matcher(source);
                while (imports.find()) {
                    String name = imports.group(2);
                    if (!allowed(name)) {
                        violations.add(file + " imports " + name);
                    }
                }
                if (CLOCK_READ.matcher(source).find()) {
                    violations.add(file + " reads the clock");
                }
            }
        }
        assertEquals(List.of(), violations);
    }

    private static boolean allowed(String name) {
        if (name.startsWith("dev.detour.core.")) {
            return true;
        }
        if (!name.startsWith("java.")) {
            return false;
        }
        return !(name.startsWith("java.net") || name.startsWith("java.sql") || name.startsWith("java.io.File")
                || name.startsWith("java.nio.file") || name.startsWith("java.util.concurrent")
                || name.startsWith("java.lang.Thread"));
    }
}
