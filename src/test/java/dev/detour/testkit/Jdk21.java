package dev.detour.testkit;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A java with virtual threads (21+) for tests of what Detour does only there: the JVM running the tests when it is
 * one, else the newest JDK installed under /usr/lib/jvm (Detour's machines have a JDK 25 beside the default 17).
 */
public final class Jdk21 {
    private static final Pattern VERSION = Pattern.compile("(?m)^JAVA_VERSION=\"(\\d+)");

    private Jdk21() {
    }

    /** The path of its {@code java}, or null when there is none. */
    public static String java() {
        if (Runtime.version().feature() >= 21) {
            return ProcessHandle.current().info().command().orElse(null);
        }
        Path best = null;
        int bestFeature = 20;
        for (Path home : homes()) {
            int feature = feature(home);
            if (feature > bestFeature && Files.isExecutable(home.resolve("bin/java"))) {
                best = home;
                bestFeature = feature;
            }
        }
        return best == null ? null : best.resolve("bin/java").toString();
    }

    private static List<Path> homes() {
        try (Stream<Path> entries = Files.list(Path.of("/usr/lib/jvm"))) {
            return entries.toList();
        } catch (IOException e) {
            return new ArrayList<>();
        }
    }

    /** The feature version its {@code release} file gives (0 when none). */
    private static int feature(Path home) {
        try {
            Matcher m = VERSION.matcher(Files.readString(home.resolve("release")));
            return m.find() ? Integer.parseInt(m.group(1)) : 0;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
