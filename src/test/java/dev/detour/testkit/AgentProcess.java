package dev.detour.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;

/**
 * Runs a real client (Claude Code, Codex, a Node SDK script) installed by {@code bin/ensure-agents} in
 * target/agents: a cleared environment (only PATH, a fresh HOME under target/agent-runs and what the
 * test adds), output to files, and a hard timeout after which the process tree is killed, so a hanging
 * client fails its test instead of the build.
 */
public final class AgentProcess {
    public static final Path AGENTS = Path.of("target/agents").toAbsolutePath();
    public static final Duration HARD_TIMEOUT = Duration.ofSeconds(120);
    private static final Path RUNS = Path.of("target/agent-runs").toAbsolutePath();
    private static final AtomicInteger SEQUENCE = new AtomicInteger();

    /** What the process did: exit code (-1 when killed on the timeout), its output and its own home. */
    public record Run(int exit, boolean timedOut, String stdout, String stderr, Path home) {
        public String output() {
            return stdout + "\n" + stderr;
        }

        public String summary() {
            return (timedOut ? "TIMED OUT" : "exit " + exit) + ", stdout: " + stdout.strip() + " | stderr tail: "
                    + tail(stderr);
        }

        private static String tail(String text) {
            String s = text.strip();
            return s.length() > 600 ? "…" + s.substring(s.length() - 600) : s;
        }
    }

    private AgentProcess() {
    }

    public static Path bin(String name) {
        return AGENTS.resolve("node_modules/.bin").resolve(name);
    }

    /** True when bin/ensure-agents installed the pinned CLIs and SDKs. */
    public static boolean installed() {
        return Files.isExecutable(bin("claude")) && Files.isExecutable(bin("codex"))
                && Files.isDirectory(AGENTS.resolve("node_modules/openai"))
                && Files.isDirectory(AGENTS.resolve("node_modules/@anthropic-ai/sdk"));
    }

    /** Skips (loudly, with bin/ensure-agents' reason) when the pinned clients could not be installed. */
    public static void assumeInstalled(String testClass) {
        Path why = AGENTS.getParent().resolve("agents-unavailable.txt");
        String reason;
        try {
            reason = Files.exists(why) ? Files.readString(why).strip() : "not installed in " + AGENTS;
        } catch (IOException e) {
            reason = e.toString();
        }
        Assumptions.assumeTrue(installed(), "!!! SKIPPED " + testClass + ": the pinned agents and SDKs are not installed ("
                + reason + "). Run: bash bin/ensure-agents target (needs node and npm) !!!");
    }

    /** A fresh, empty home directory for one run (also usable as its working directory). */
    public static Path freshHome(String label) {
        try {
            Path home = RUNS.resolve(label + "-" + ProcessHandle.current().pid() + "-" + SEQUENCE.incrementAndGet());
            Files.createDirectories(home);
            return home;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Runs {@code command} in {@code workdir} with HOME={@code home} and only {@code env} besides PATH. */
    public static Run run(List<String> command, Path home, Path workdir, Map<String, String> env) {
        Path out = home.resolve("stdout.txt");
        Path err = home.resolve("stderr.txt");
        ProcessBuilder builder = new ProcessBuilder(new ArrayList<>(command)).directory(workdir.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(out.toFile()).redirectError(err.toFile());
        Map<String, String> environment = builder.environment();
        String path = System.getenv("PATH");
        environment.clear();
        environment.put("PATH", path == null ? "/usr/local/bin:/usr/bin:/bin" : path);
        environment.put("HOME", home.toString());
        environment.put("TMPDIR", home.toString());
        environment.put("LANG", "C.UTF-8");
        environment.put("NO_COLOR", "1");
        environment.put("CI", "1");
        // the runs live under target/ inside the checkout: keep the clients from finding its git repository
        environment.put("GIT_CEILING_DIRECTORIES", RUNS.toString());
        environment.putAll(env);
        try {
            Process process = builder.start();
            boolean finished = process.waitFor(HARD_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            if (!finished) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
            return new Run(finished ? process.exitValue() : -1, !finished, Files.readString(out), Files.readString(err),
                    home);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Appends one line of the direct-vs-Detour table to target/agent-results.md (read by people, not tests). */
    public static synchronized void record(String client, String scenario, String direct, String detour) {
        try {
            Path table = RUNS.getParent().resolve("agent-results.md");
            Files.writeString(table, "| " + client + " | " + scenario + " | " + oneLine(direct) + " | " + oneLine(detour)
                    + " |\n", java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String oneLine(String s) {
        String t = s.replace('\n', ' ').replace('|', '/').strip();
        return t.length() > 160 ? t.substring(0, 160) + "…" : t;
    }
}
