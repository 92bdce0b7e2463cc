package dev.detour.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The process harness itself: the built jar starts, answers, dies for real and restarts on its data. */
class DetourProcessIT {

    private static int status(String url) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    @Test
    void theJarAnswersOnItsAnnouncedPortAndASigkillLeavesNoProcessBehindForTheRestart() throws Exception {
        DetourProcess first = DetourProcess.start("proc-harness", Map.of());
        DetourProcess second = null;
        try {
            assertTrue(first.port() > 0, first.toString());
            assertEquals(200, status(first.url() + "/readyz"));
            assertEquals(0, first.number("SELECT COUNT(*) FROM request_events"), "its own, fresh database");
            List<ProcessHandle> children = first.leftBehind();
            assertTrue(children.stream().anyMatch(h -> h.info().command().orElse("").contains("mariadbd")),
                    "the embedded MariaDB runs as a child: " + children.stream().map(h -> h.info().command()).toList());

            first.sigkill();
            assertNotEquals(0, first.awaitExit(Duration.ofSeconds(30)), "killed, not exited");
            assertEquals(List.of(), first.leftBehind(), "nothing the killed process started still runs");

            second = first.restart();
            assertEquals(first.dataDir(), second.dataDir());
            assertEquals(200, status(second.url() + "/readyz"));
        } finally {
            first.close();
            if (second != null) {
                second.close();
            }
        }
    }
}
