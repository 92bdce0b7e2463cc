package dev.detour.testkit;

/** A JVM property set for one test and put back as it was (cleared when it was not set) when closed. */
public final class SystemProperty implements AutoCloseable {
    private final String name;
    private final String before;

    private SystemProperty(String name, String value) {
        this.name = name;
        this.before = System.getProperty(name);
        System.setProperty(name, value);
    }

    public static SystemProperty set(String name, String value) {
        return new SystemProperty(name, value);
    }

    @Override
    public void close() {
        if (before == null) {
            System.clearProperty(name);
        } else {
            System.setProperty(name, before);
        }
    }
}
