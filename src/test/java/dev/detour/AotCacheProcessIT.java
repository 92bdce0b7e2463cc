package dev.detour;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.testkit.DetourProcess;
import dev.detour.testkit.DetourProcess.Launch;
import dev.detour.testkit.ProductionFlags;
import dev.detour.testkit.TestDirs;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * N-6: the ahead-of-time cache the build trains (bin/train-aot at `package`) is used by a JDK 25
 * {@code java -XX:AOTCache=… -jar detour.jar}, and a stale one (another jar than the one trained) is
 * reported and ignored: Detour still starts and serves, only without the head start.
 */
class AotCacheProcessIT {
    private static final Path TARGET = Path.of("target").toAbsolutePath();
    private static final Path CACHE = TARGET.resolve("detour.aot");
    private static String trainedJava;

    @BeforeAll
    static void theBuildMadeACache() throws Exception {
        Path why = TARGET.resolve("aot-unavailable.txt");
        Path java = TARGET.resolve("aot-training/java");
        String reason = Files.exists(why) ? Files.readString(why).strip() : "no " + CACHE + " (built with -Ddetour.aot.skip?)";
        Assumptions.assumeTrue(Files.isRegularFile(CACHE) && Files.isRegularFile(java),
                "!!! SKIPPED AotCacheProcessIT: the build made no AOT cache (" + reason + "). It needs a JDK 25+ !!!");
        trainedJava = Files.readString(java).strip();
    }

    /** With the production flags (bin/jvm-flags): the JIT flags must not make the JVM set the cache aside. */
    @Test
    void aFreshStartMapsTheTrainedCacheAndUsesItsLinkedClasses() throws Exception {
        List<String> flags = new ArrayList<>(List.of("-XX:AOTCache=" + CACHE, "-Xlog:aot"));
        flags.addAll(ProductionFlags.read());
        try (DetourProcess detour = DetourProcess.start("aot-used", Map.of(), flags,
                new Launch(trainedJava, DetourProcess.JAR))) {
            assertTrue(detour.output().contains("Opened AOT cache " + CACHE), detour.output());
            assertTrue(detour.output().contains("Using AOT-linked classes: true"), detour.output());
            assertEquals(401, modelsStatus(detour), "it serves: a keyless request is refused as usual");
        }
    }

    @Test
    void aCacheTrainedOnAnotherJarIsReportedAndIgnoredAndDetourStillServes() throws Exception {
        // the same bytes under the same name, but a new modification time: to the JVM another jar
        Path other = TestDirs.embeddedRoot("aot-stale-jar").resolve("detour.jar");
        Files.createDirectories(other.getParent());
        Files.deleteIfExists(other);
        Files.copy(DetourProcess.JAR, other);
        try (DetourProcess detour = DetourProcess.start("aot-stale", Map.of(),
                List.of("-XX:AOTCache=" + CACHE), new Launch(trainedJava, other))) {
            String output = detour.output();
            assertTrue(output.contains("timestamp has changed") || output.contains("shared class paths mismatch"), output);
            assertFalse(output.contains("Using AOT-linked classes: true"), output);
            assertEquals(401, modelsStatus(detour), "it serves without the cache");
        }
    }

    private static int modelsStatus(DetourProcess detour) throws Exception {
        HttpResponse<Void> response = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(detour.url() + "/v1/models")).GET().build(),
                HttpResponse.BodyHandlers.discarding());
        return response.statusCode();
    }
}
