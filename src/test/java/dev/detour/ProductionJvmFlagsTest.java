package dev.detour;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import dev.detour.testkit.ProductionFlags;
import org.junit.jupiter.api.Test;

/**
 * N-6: the production JVM flags have one source, {@code bin/jvm-flags}; the systemd unit operators copy
 * (docs/operations.md) carries them on every {@code ExecStart}, the benchmarks measure with them by default, and
 * the JVM that runs the build accepts them (a misspelt {@code -XX} flag stops a JVM at start).
 */
class ProductionJvmFlagsTest {

    @Test
    void everyExecStartOfTheDocumentedUnitCarriesTheProductionFlags() throws Exception {
        String flags = String.join(" ", productionFlags());
        List<String> execStarts = Files.readAllLines(Path.of("docs/operations.md")).stream()
                .filter(line -> line.replaceFirst("^#\\s*", "").startsWith("ExecStart="))
                .toList();
        assertTrue(execStarts.size() >= 2, "the Java 17 and the JDK 25 lines: " + execStarts);
        for (String line : execStarts) {
            assertTrue(line.contains(" " + flags + " -jar "), line + " carries " + flags);
        }
    }

    @Test
    void theBenchmarksDefaultToTheProductionFlags() throws Exception {
        for (String script : List.of("bench/run.sh", "bench/warmup.sh")) {
            String text = Files.readString(Path.of(script));
            assertTrue(text.contains("$(\"$ROOT/bin/jvm-flags\")"), script + " defaults to bin/jvm-flags");
        }
    }

    @Test
    void theBuildsJvmStartsWithThem() throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(productionFlags());
        command.add("-XX:+PrintFlagsFinal");
        command.add("-version");
        Process java = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, java.waitFor(), output);
        assertTrue(output.matches("(?s).*\\bCICompilerCount\\s+= 4\\b.*"), "four compiler threads");
        assertTrue(output.matches("(?s).*\\bCompileThresholdScaling\\s+= 0\\.25.*"), "C2 after a quarter of the calls");
    }

    private static List<String> productionFlags() throws Exception {
        List<String> flags = ProductionFlags.read();
        assertTrue(flags.contains("-Xmx512m"), "the heap N-3 sizes for");
        return flags;
    }
}
