package dev.detour.testkit;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** The production JVM flags, as {@code bin/jvm-flags} prints them (its one source, N-6). */
public final class ProductionFlags {
    private ProductionFlags() {
    }

    public static List<String> read() throws IOException, InterruptedException {
        Process script = new ProcessBuilder("sh", "bin/jvm-flags").start();
        String out = new String(script.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (script.waitFor() != 0 || out.isEmpty()) {
            throw new IllegalStateException("bin/jvm-flags printed no flags (exit " + script.exitValue() + ")");
        }
        return List.of(out.split("\\s+"));
    }
}
