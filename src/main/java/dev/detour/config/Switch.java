package dev.detour.config;

/**
 * A way back that is on by default (the front, the stream pump): a JVM property when set ({@code true} / anything
 * else), else an environment variable that turns it off with {@code 0} or {@code false}. Read where the part is built,
 * not in {@link DetourConfig}: an operator flips it while a client misbehaves, nothing else depends on it.
 */
public final class Switch {
    private Switch() {
    }

    public static boolean on(String property, String env) {
        String set = System.getProperty(property);
        if (set != null) {
            return Boolean.parseBoolean(set);
        }
        String value = System.getenv(env);
        return value == null || !(value.equals("0") || value.equalsIgnoreCase("false"));
    }
}
