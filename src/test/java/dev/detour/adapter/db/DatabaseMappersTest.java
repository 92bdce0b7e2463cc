package dev.detour.adapter.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * N-6: the database registers its mappers from a list, not by scanning its package (a scan of the fat jar cost
 * every start 1.5-2 s); a mapper added to the package and not to the list would fail at its first use instead.
 */
class DatabaseMappersTest {

    @Test
    void theListHoldsEveryMapperInterfaceOfThePackageAndNothingElse() throws Exception {
        Path classes = Path.of(Database.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path dir = classes.resolve(Database.class.getPackageName().replace('.', '/'));
        Set<String> inPackage;
        try (Stream<Path> files = Files.list(dir)) {
            inPackage = files.map(f -> f.getFileName().toString())
                    .filter(name -> name.endsWith("Mapper.class") && !name.contains("$"))
                    .map(name -> Database.class.getPackageName() + "." + name.replace(".class", ""))
                    .collect(Collectors.toCollection(TreeSet::new));
        }
        assertTrue(inPackage.size() >= 20, "the package's mappers were found: " + inPackage);
        for (String name : inPackage) {
            assertTrue(Class.forName(name).isInterface(), name + " is a mapper interface");
        }
        Set<String> listed = Database.MAPPERS.stream().map(Class::getName)
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(inPackage, listed);
        assertEquals(Database.MAPPERS.size(), listed.size(), "no mapper listed twice");
    }
}
