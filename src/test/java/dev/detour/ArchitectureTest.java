package dev.detour;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * docs/architecture.md's layering, read from the compiled classes (every class a class file names:
 * types, signatures, descriptors; not string literals). A package is {@code dev.detour.X}; each
 * {@code adapter.*} package is its own node, since adapters are separate technologies, and so is each subpackage of
 * {@code gateway} and {@code admin} (the attempt loop, its ports, live state, wire protocol, key admission; admin's
 * ports and records apart from its use cases), so no two of them lean on each other either.
 */
class ArchitectureTest {
    private static final Set<String> USE_CASES = Set.of("admin", "gateway", "recovery", "alerts");
    /** Technologies an adapter wraps: the database (MyBatis, JDBC) and the servlet API. */
    private static final List<String> ADAPTER_TECHNOLOGIES = List.of("org/apache/ibatis/", "java/sql/", "jakarta/");
    private static final Pattern CLASS_NAME = Pattern.compile(
            "(dev/detour|org/apache/ibatis|java/sql|jakarta)/[A-Za-z0-9_/$]+");
    /** Packages a package depends on (its own excluded), by the node naming above. */
    private static Map<String, Set<String>> dependencies;
    /** Class-level edges into adapter packages and adapter technologies, for the failure message. */
    private static Map<String, Set<String>> adapterUses;

    @BeforeAll
    static void readCompiledClasses() throws IOException, URISyntaxException {
        Path classes = Path.of(App.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        dependencies = new TreeMap<>();
        adapterUses = new TreeMap<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(p -> p.toString().endsWith(".class")).toList()) {
                String className = classes.relativize(file).toString().replace('\\', '/').replace(".class", "");
                String from = node(className);
                Set<String> targets = dependencies.computeIfAbsent(from, k -> new TreeSet<>());
                for (String used : namesUsed(file)) {
                    if (technology(used)) {
                        adapterUses.computeIfAbsent(className, k -> new TreeSet<>()).add(used);
                        continue;
                    }
                    String to = node(used);
                    if (!to.equals(from)) {
                        targets.add(to);
                        if (to.startsWith("adapter")) {
                            adapterUses.computeIfAbsent(className, k -> new TreeSet<>()).add(used);
                        }
                    }
                }
            }
        }
        assertFalse(dependencies.isEmpty(), "compiled classes found under " + classes);
    }

    /** The use cases talk to the world through ports they own; adapters implement them. */
    @Test
    void theUseCasesNeverUseAnAdapter() {
        List<String> violations = new ArrayList<>();
        adapterUses.forEach((cls, used) -> used.stream().filter(u -> node(u).startsWith("adapter"))
                .filter(u -> USE_CASES.contains(layer(node(cls)))).forEach(u -> violations.add(cls + " uses " + u)));
        assertEquals(List.of(), violations);
    }

    /**
     * The use cases (gateway, admin, recovery, alerts) see neither MyBatis, JDBC nor servlets: those belong to
     * adapter/db and adapter/web (D-1: adapter/db tells the gateway "the database is unavailable" as a
     * {@code gateway.port.DatabaseUnavailable}, so the gateway never reads an SQLException).
     */
    @Test
    void theUseCasesNeverUseTheDatabaseOrServletApis() {
        List<String> violations = new ArrayList<>();
        adapterUses.forEach((cls, used) -> used.stream().filter(ArchitectureTest::technology)
                .filter(u -> USE_CASES.contains(layer(node(cls))))
                .forEach(u -> violations.add(cls + " uses " + u)));
        assertEquals(List.of(), violations);
    }

    /** No two packages (each {@code adapter.*} its own) lean on each other, whatever their layer. */
    @Test
    void noTwoPackagesDependOnEachOther() {
        List<String> twoWay = new ArrayList<>();
        dependencies.forEach((a, targets) -> targets.forEach(b -> {
            if (a.compareTo(b) < 0 && dependencies.getOrDefault(b, Set.of()).contains(a)) {
                twoWay.add(a + " <-> " + b);
            }
        }));
        assertEquals(List.of(), twoWay);
    }

    private static boolean technology(String internalName) {
        return ADAPTER_TECHNOLOGIES.stream().anyMatch(internalName::startsWith);
    }

    /** Packages whose subpackages are nodes of their own. */
    private static final Set<String> SPLIT = Set.of("adapter", "gateway", "admin");

    /**
     * {@code dev/detour/adapter/db/X} → adapter.db; {@code dev/detour/gateway/live/X} → gateway.live;
     * {@code dev/detour/admin/X$Y} → admin; {@code dev/detour/core/cooldown/X} → core; the root → root.
     */
    static String node(String internalName) {
        String[] parts = internalName.split("/");
        if (parts.length <= 3) {
            return "root";
        }
        if (SPLIT.contains(parts[2]) && parts.length > 4) {
            return parts[2] + "." + parts[3];
        }
        return parts[2];
    }

    /** The top-level package of a node: gateway.live → gateway. */
    private static String layer(String node) {
        return node.split("\\.")[0];
    }

    /** The dev.detour classes a class file's constant pool names, string constants left out. */
    private static Set<String> namesUsed(Path classFile) throws IOException {
        try (InputStream in = Files.newInputStream(classFile); DataInputStream data = new DataInputStream(in)) {
            data.readInt(); // magic
            data.readUnsignedShort(); // minor
            data.readUnsignedShort(); // major
            int count = data.readUnsignedShort();
            String[] utf8 = new String[count];
            Set<Integer> stringConstants = new HashSet<>();
            for (int i = 1; i < count; i++) {
                int tag = data.readUnsignedByte();
                switch (tag) {
                    case 1 -> utf8[i] = data.readUTF();
                    case 8 -> stringConstants.add(data.readUnsignedShort());
                    case 7, 16, 19, 20 -> data.readUnsignedShort();
                    case 15 -> {
                        data.readUnsignedByte();
                        data.readUnsignedShort();
                    }
                    case 3, 4, 9, 10, 11, 12, 17, 18 -> data.readInt();
                    case 5, 6 -> {
                        data.readLong();
                        i++; // eight-byte constants take two slots
                    }
                    default -> throw new IOException(classFile + ": unknown constant pool tag " + tag);
                }
            }
            Set<String> names = new TreeSet<>();
            for (int i = 1; i < count; i++) {
                if (utf8[i] != null && !stringConstants.contains(i)) {
                    Matcher m = CLASS_NAME.matcher(utf8[i]);
                    while (m.find()) {
                        names.add(m.group());
                    }
                }
            }
            return names;
        }
    }
}
