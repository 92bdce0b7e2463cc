package dev.detour.admin;

/**
 * U-1: a secret generated at the first run is shown exactly once, on standard output and never
 * in the log. Standard output is what a newcomer sees under {@code ./mvnw -q compile exec:java}
 * (Maven's {@code -q} swallows log lines) and what systemd's journal keeps for a service.
 */
public final class FirstRunNotice {
    private FirstRunNotice() {
    }

    public static void show(String line) {
        System.out.println(line);
        System.out.flush();
    }
}
