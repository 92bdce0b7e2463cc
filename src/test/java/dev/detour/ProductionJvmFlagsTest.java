package dev.detour;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import dev.detour.server.CarrierPriority;
import dev.detour.testkit.Jdk21;
import dev.detour.testkit.JitProbe;
import dev.detour.testkit.ProductionFlags;
import jitprobe.OutsideDetour;
import org.eclipse.jetty.util.VirtualThreads;
import org.junit.jupiter.api.Assumptions;
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
        String output = javaWithProductionFlags("-XX:+PrintFlagsFinal", "-version");
        assertTrue(output.matches("(?s).*\\bCICompilerCount\\s+= 4\\b.*"), "four compiler threads");
        assertTrue(output.matches("(?s).*\\bCompileThresholdScaling\\s+= 1\\.0.*"),
                "the JVM's own thresholds stay the default (session 51: a quarter for all of it slowed the start)");
    }

    /**
     * N-6: under the production flags a method of Detour's reaches C2 after a quarter of the calls it would
     * otherwise need, and the same method outside Detour's packages does not ({@link JitProbe}, {@code -Xbatch}:
     * each compile is done before the next call, so the listing does not depend on the machine's speed).
     */
    @Test
    void detoursOwnMethodsReachC2AfterAQuarterOfTheCallsAndNoOtherDoes() throws Exception {
        String output = javaWithProductionFlags("-Xbatch", "-XX:+PrintCompilation",
                "-cp", System.getProperty("java.class.path"), JitProbe.class.getName());
        assertTrue(output.contains("probe done"), output);
        assertEquals(Set.of(3, 4), tiersCompiled(output, JitProbe.class), output);
        assertEquals(Set.of(3), tiersCompiled(output, OutsideDetour.class), output);
    }

    /** The tiers {@code -XX:+PrintCompilation} lists a compile of {@code probe}'s {@code mix} at. */
    private static Set<Integer> tiersCompiled(String printCompilation, Class<?> probe) {
        Pattern compile = Pattern.compile("\\s(\\d)\\s+" + Pattern.quote(probe.getName() + "::mix") + " \\(");
        return printCompilation.lines()
                .filter(line -> !line.contains("made not entrant"))
                .map(compile::matcher)
                .filter(Matcher::find)
                .map(match -> Integer.parseInt(match.group(1)))
                .collect(Collectors.toSet());
    }

    /**
     * N-8: under the production flags a thread's priority is a nice value, so Java 17's request threads
     * (the front's and JettyServer's, the lowest priority) run at nice 10 — and no thread of the JVM's own runs above nice 0, even
     * when it runs as root (CI does; the JVM's table would give its GC, compiler and VM threads nice -4).
     */
    @Test
    void underThemTheLowestPriorityIsNiceTenAndNoThreadRunsAboveNormal() throws Exception {
        String output = javaWithProductionFlags("-cp", System.getProperty("java.class.path"),
                ThreadNices.class.getName());
        List<String> lines = output.lines().toList();
        assertTrue(lines.contains("lowest-priority 10"), output);
        if (isRoot()) { // CI and the benches; a service user needs the unit's LimitNICE=+0 (the test below)
            assertTrue(lines.contains("raised-back 0"), output);
        }
        List<String> nices = lines.stream().filter(line -> line.startsWith("thread ")).toList();
        assertTrue(nices.size() >= 5, "the JVM's own threads are listed: " + output);
        for (String line : nices) {
            assertTrue(Integer.parseInt(line.substring(line.lastIndexOf(' ') + 1)) >= 0, line);
        }
    }

    /**
     * N-8 on JDK 21+: a virtual thread runs at its carrier's nice, and the carriers are lowered to the request
     * threads' nice 10 ({@link dev.detour.server.CarrierPriority}) — those running when Detour starts and those the
     * scheduler adds later (here two more, started after the lowering: four virtual threads that each hold a carrier
     * until all four run at once), while a platform thread of normal priority stays at nice 0.
     */
    @Test
    void onJdk21AndLaterTheVirtualThreadsCarriersRunAtNiceTen() throws Exception {
        String java = Jdk21.java();
        Assumptions.assumeTrue(java != null,
                "!!! SKIPPED onJdk21AndLaterTheVirtualThreadsCarriersRunAtNiceTen: no JDK 21+ under /usr/lib/jvm !!!");
        List<String> command = new ArrayList<>(List.of(java, "-Djdk.virtualThreadScheduler.parallelism=4"));
        command.addAll(productionFlags());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), CarrierNices.class.getName()));
        Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, child.waitFor(), output);
        List<String> lines = output.lines().toList();
        assertTrue(lines.stream().anyMatch(line -> line.matches("lowered [12]")),
                "one or two carriers when lowered: " + output);
        List<String> virtual = lines.stream().filter(line -> line.startsWith("virtual ")).toList();
        assertEquals(4, virtual.size(), output);
        assertTrue(virtual.stream().allMatch(line -> line.startsWith("virtual 10 on ")), output);
        assertEquals(4, virtual.stream().map(line -> line.substring(line.lastIndexOf(' '))).distinct().count(),
                "four carriers, two or more added after the lowering: " + output);
        assertTrue(lines.contains("platform 0"), output);
    }

    /** N-7: the service may raise a stream's thread back to its own nice 0, never above it. */
    @Test
    void theDocumentedUnitLetsTheServiceRaiseAThreadBackToNiceZero() throws Exception {
        List<String> unit = Files.readAllLines(Path.of("docs/operations.md"));
        assertTrue(unit.contains("LimitNICE=+0"), "the unit's [Service] has LimitNICE=+0");
    }

    private static boolean isRoot() throws Exception {
        return Files.readString(Path.of("/proc/self/status")).lines()
                .anyMatch(line -> line.startsWith("Uid:") && line.split("\\s+")[1].equals("0"));
    }

    /** Run under the production flags: the nice of a lowest-priority thread, then of every thread of the JVM. */
    public static final class ThreadNices {
        public static void main(String[] args) throws Exception {
            String[] lowest = new String[1];
            Thread low = new Thread(() -> lowest[0] = nice(Path.of("/proc/thread-self")));
            low.setPriority(Thread.MIN_PRIORITY);
            low.start();
            low.join();
            System.out.println("lowest-priority " + lowest[0]);
            String[] raised = new String[1];
            Thread back = new Thread(() -> { // the front's relay of a stream (FrontConnection.relayingAsItComes)
                Thread.currentThread().setPriority(Thread.NORM_PRIORITY);
                raised[0] = nice(Path.of("/proc/thread-self"));
            });
            back.setPriority(Thread.MIN_PRIORITY);
            back.start();
            back.join();
            System.out.println("raised-back " + raised[0]);
            try (var tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
                for (Path task : tasks) {
                    String nice = nice(task);
                    if (nice != null) { // null: a thread that ended meanwhile
                        System.out.println("thread " + task.getFileName() + " " + nice);
                    }
                }
            }
        }

        /** Field 19 of a task's stat: its nice value (fields counted after the parenthesised name). */
        static String nice(Path task) {
            try {
                String stat = Files.readString(task.resolve("stat"));
                return stat.substring(stat.lastIndexOf(')') + 2).split(" ")[16];
            } catch (java.io.IOException e) {
                return null;
            }
        }
    }

    /**
     * Run on JDK 21+ under the production flags with four carriers: lowers the carriers as Detour's start does, then
     * four virtual threads that each spin on their carrier until all four run at once, so the scheduler must have
     * added carriers after the lowering; each prints its carrier's nice (/proc/thread-self is the OS thread).
     */
    public static final class CarrierNices {
        public static void main(String[] args) throws Exception {
            System.out.println("lowered " + CarrierPriority.lowerTo(Thread.MIN_PRIORITY));
            AtomicInteger running = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(4);
            Executor virtual = VirtualThreads.getNamedVirtualThreadsExecutor("carrier-nices");
            long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            for (int i = 0; i < 4; i++) {
                virtual.execute(() -> {
                    running.incrementAndGet();
                    while (running.get() < 4 && System.nanoTime() - giveUp < 0) {
                        Thread.onSpinWait(); // holds the carrier: the other three need carriers of their own
                    }
                    Path carrier = Path.of("/proc/thread-self");
                    System.out.println("virtual " + ThreadNices.nice(carrier) + " on " + tid(carrier));
                    done.countDown();
                });
            }
            done.await();
            System.out.println("platform " + ThreadNices.nice(Path.of("/proc/thread-self")));
        }

        private static String tid(Path task) {
            try {
                return task.toRealPath().getFileName().toString();
            } catch (java.io.IOException e) {
                return "?";
            }
        }
    }

    /** The build's java with the production flags and {@code args}: its output, once it exited 0. */
    private static String javaWithProductionFlags(String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command().orElse("java"));
        command.addAll(productionFlags());
        command.addAll(List.of(args));
        Process java = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(java.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, java.waitFor(), output);
        return output;
    }

    private static List<String> productionFlags() throws Exception {
        List<String> flags = ProductionFlags.read();
        assertTrue(flags.contains("-Xmx512m"), "the heap N-3 sizes for");
        return flags;
    }
}
