package dev.detour;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.testkit.DetourProcess;
import dev.detour.testkit.DetourProcess.Launch;
import dev.detour.testkit.Jdk21;
import dev.detour.testkit.ProductionFlags;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * N-8 on JDK 21+: a real {@code java -jar detour.jar} under the production flags runs the virtual threads' carriers
 * at the request threads' nice 10 from the start (App.start lowers them before it serves), and the event writer at
 * nice 0, so the writer keeps pace with requests served on virtual threads as it does on Java 17's platform ones.
 */
class CarrierPriorityProcessIT {

    @Test
    void aStartedDetourRunsTheCarriersAtNiceTenAndTheEventWriterAtNiceZero() throws Exception {
        String java = Jdk21.java();
        Assumptions.assumeTrue(java != null,
                "!!! SKIPPED CarrierPriorityProcessIT: no JDK 21+ under /usr/lib/jvm !!!");
        try (DetourProcess detour = DetourProcess.start("carrier-priority", Map.of(), ProductionFlags.read(),
                new Launch(java, DetourProcess.JAR))) {
            List<String[]> threads = threads(detour.pid());
            List<String> carriers = niceOf(threads, "ForkJoinPool-");
            assertFalse(carriers.isEmpty(), "the scheduler has a carrier: " + render(threads));
            assertTrue(carriers.stream().allMatch("10"::equals), render(threads));
            assertEquals(List.of("0"), niceOf(threads, "detour-event-w"), render(threads));
        }
    }

    /** Each thread of the process as {comm, nice} (/proc/PID/task/TID/stat: the nice is field 19). */
    private static List<String[]> threads(long pid) throws IOException {
        List<String[]> found = new ArrayList<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc/" + pid + "/task"))) {
            for (Path task : tasks.toList()) {
                try {
                    String stat = Files.readString(task.resolve("stat"));
                    String comm = stat.substring(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
                    found.add(new String[] {comm, stat.substring(stat.lastIndexOf(')') + 2).split(" ")[16]});
                } catch (IOException e) {
                    // a thread that ended meanwhile
                }
            }
        }
        return found;
    }

    /** The nice values of the threads whose name starts so (ForkJoinPool.commonPool's workers are not carriers). */
    private static List<String> niceOf(List<String[]> threads, String prefix) {
        return threads.stream().filter(t -> t[0].startsWith(prefix)).map(t -> t[1]).toList();
    }

    private static String render(List<String[]> threads) {
        StringBuilder out = new StringBuilder();
        threads.forEach(t -> out.append(t[0]).append('=').append(t[1]).append(' '));
        return out.toString();
    }
}
