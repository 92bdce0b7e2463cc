package dev.detour.testkit;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The class names on every live thread's stack, virtual threads included. {@link Thread#getAllStackTraces()} omits
 * virtual threads, and on JDK 21+ the front serves connections beyond its first few on them; there the JDK's own
 * thread dump ({@code HotSpotDiagnosticMXBean.dumpThreads}, JDK 21+, reached by reflection as the code compiles for
 * 17) lists them all.
 */
public final class ThreadStacks {
    private ThreadStacks() {
    }

    /** One list per thread: the classes of its frames, innermost first. */
    public static List<List<String>> classesPerThread() {
        Method dump = dumpThreads();
        if (dump == null) {
            List<List<String>> all = new ArrayList<>();
            for (StackTraceElement[] stack : Thread.getAllStackTraces().values()) {
                all.add(Arrays.stream(stack).map(StackTraceElement::getClassName).toList());
            }
            return all;
        }
        return fromDump(dump);
    }

    /** {@code dumpThreads(String, ThreadDumpFormat)} where the JDK has it (21+), else null. */
    private static Method dumpThreads() {
        try {
            Class<?> format = Class.forName("com.sun.management.HotSpotDiagnosticMXBean$ThreadDumpFormat");
            return com.sun.management.HotSpotDiagnosticMXBean.class.getMethod("dumpThreads", String.class, format);
        } catch (ReflectiveOperationException e) {
            return null;
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static List<List<String>> fromDump(Method dump) {
        Path dir = null;
        try {
            dir = Files.createTempDirectory(Path.of("target"), "threads");
            Path file = dir.resolve("threads.txt").toAbsolutePath(); // the dump refuses a file that exists
            Class<? extends Enum> format = (Class<? extends Enum>) dump.getParameterTypes()[1];
            dump.invoke(ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class),
                    file.toString(), Enum.valueOf(format, "TEXT_PLAIN"));
            return parse(Files.readAllLines(file, StandardCharsets.UTF_8));
        } catch (IOException | ReflectiveOperationException e) {
            throw new IllegalStateException("thread dump failed", e);
        } finally {
            delete(dir);
        }
    }

    /**
     * The plain-text dump: a {@code #id "name" ...} line opens each thread, its frames follow indented, as
     * {@code [at ][module/]package.Class.method(File.java:line)}; lock lines ({@code - parking to wait for <...>})
     * are not frames.
     */
    static List<List<String>> parse(List<String> lines) {
        List<List<String>> all = new ArrayList<>();
        List<String> current = null;
        for (String line : lines) {
            if (line.startsWith("#")) {
                current = new ArrayList<>();
                all.add(current);
            } else if (current != null && line.startsWith(" ") && line.contains("(")) {
                String frame = line.strip();
                if (frame.startsWith("at ")) { // JDK 25 writes "at " before each frame, 21 does not
                    frame = frame.substring(3);
                }
                String method = frame.substring(frame.lastIndexOf('/', frame.indexOf('(')) + 1, frame.indexOf('('));
                current.add(method.substring(0, Math.max(0, method.lastIndexOf('.'))));
            }
        }
        return all;
    }

    private static void delete(Path dir) {
        if (dir == null) {
            return;
        }
        try (var files = Files.list(dir)) {
            for (Path f : files.toList()) {
                Files.deleteIfExists(f);
            }
            Files.deleteIfExists(dir);
        } catch (IOException ignored) {
            // a leftover file under target/ is harmless
        }
    }
}
