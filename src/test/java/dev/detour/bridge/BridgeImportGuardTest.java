package dev.detour.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * B-2: the bridge is pure translation the gateway calls, never the other way round — JDK (no network,
 * files, threads), Jackson and core only: no gateway, adapter or admin, no jakarta, no logging (an
 * answer's text must not reach a log), and no clock (the gateway passes the time in).
 */
class BridgeImportGuardTest {
    private static final Path BRIDGE = Path.of("src/main/java/dev/detour/bridge");
    private static final Pattern IMPORT = Pattern.compile("^import\\s+(static\\s+)?([\\w.]+)", Pattern.MULTILINE);
    private static final Pattern CLOCK_READ = Pattern.compile(
            "Instant\\.now\\(|Clock\\.system|System\\.currentTimeMillis|System\\.nanoTime|LocalDateTime\\.now\\(");

    @Test
    void theBridgeImportsOnlyTheJdkJacksonAndCoreAndNeverReadsTheClock() throws IOException {
        List<String> violations = new ArrayList<>();
        try (Stream<Path> files = Files.list(BRIDGE)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".java")).toList()) {
                String source = Files.readString(file);
                var imports = IMPORT.matcher(source);
                while (imports.find()) {
                    if (!allowed(imports.group(2))) {
                        violations.add(file.getFileName() + " imports " + imports.group(2));
                    }
                }
                if (CLOCK_READ.matcher(source).find()) {
                    violations.add(file.getFileName() + " reads the clock");
                }
            }
        }
        assertEquals(List.of(), violations);
    }

    private static boolean allowed(String name) {
        if (name.startsWith("dev.detour.core.") || name.startsWith("dev.detour.bridge.")
                || name.startsWith("com.fasterxml.jackson.")) {
            return true;
        }
        return name.startsWith("java.") && !(name.startsWith("java.net") || name.startsWith("java.sql")
                || name.startsWith("java.nio.file") || name.startsWith("java.util.concurrent")
                || name.startsWith("java.util.logging"));
    }
}
