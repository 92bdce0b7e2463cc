package dev.detour.adapter.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.App;
import dev.detour.adapter.crypto.AdminToken;
import dev.detour.adapter.db.AdminTokenBootstrap;
import dev.detour.testkit.MutableClock;
import dev.detour.testkit.TestApp;
import dev.detour.testkit.TestDatabase;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class AdminAuthIT {
    private static final MutableClock CLOCK = MutableClock.at("2026-11-29T10:00:00Z");
    private static final java.time.Duration THROTTLE_CAP = dev.detour.core.security.FailureDelays.PER_ADDRESS.cap();
    private static App app;

    @BeforeAll
    static void start() {
        app = TestApp.start(CLOCK);
    }

    @AfterAll
    static void stop() {
        app.close();
    }

    @BeforeEach
    void clean() {
        TestDatabase.clean();
    }

    @Test
    void missingOrWrongBearerGets401WithTheAuthCode() {
        for (String token : new String[] {null, "wrong-token-0123456789", TestApp.ADMIN_TOKEN + "x", ""}) {
            for (String path : List.of("/groups", "/accounts", "/accounts/1", "/audit", "/nothing")) {
                CLOCK.advance(THROTTLE_CAP); // each try waits out the wrong-token throttle, so it reaches the check
                var response = new AdminClient(app, token).get(path);
                assertEquals(401, response.status(), token + " " + path);
                assertEquals("auth.admin_required", response.errorCode());
            }
            CLOCK.advance(THROTTLE_CAP);
            assertEquals(401, new AdminClient(app, token).post("/groups", "{\"name\":\"x\"}").status());
        }
        assertEquals(0, Sql.number("SELECT COUNT(*) FROM groups_"));
        CLOCK.advance(THROTTLE_CAP);
        assertEquals(200, new AdminClient(app).get("/groups").status());
    }

    @Test
    void generatedTokenIsStoredOnlyAsADigestAndReusedAfterRestart() {
        AdminToken first = AdminTokenBootstrap.establish(Optional.empty(), TestDatabase.database(), CLOCK);
        String stored = Sql.string("SELECT value FROM settings WHERE name = 'admin_token_sha256'");
        assertEquals(first.hexDigest(), stored);
        AdminToken afterRestart = AdminTokenBootstrap.establish(Optional.empty(), TestDatabase.database(), CLOCK);
        assertEquals(first.hexDigest(), afterRestart.hexDigest());
        assertFalse(afterRestart.matches(stored), "the digest itself is not a token");
    }

    @Test
    void configuredTokenWinsOverAStoredOne() {
        AdminTokenBootstrap.establish(Optional.empty(), TestDatabase.database(), CLOCK);
        AdminToken configured = AdminTokenBootstrap.establish(Optional.of("configured-token-0123456789"),
                TestDatabase.database(), CLOCK);
        assertTrue(configured.matches("configured-token-0123456789"));
    }

    @Test
    void pluggedConsoleAuthenticatorNamesTheActor() {
        AdminAuthenticator console = request -> Optional.ofNullable(request.getHeader("X-Test-User"));
        AdminAuthenticator any = AdminAuthenticator.anyOf(List.of(
                new BearerTokenAuthenticator(AdminToken.ofPlain(TestApp.ADMIN_TOKEN)), console));
        assertTrue(any.actor(new FakeHeaders("Authorization", "Bearer " + TestApp.ADMIN_TOKEN).request())
                .filter("admin-token"::equals).isPresent());
        assertEquals(Optional.of("alice"), any.actor(new FakeHeaders("X-Test-User", "alice").request()));
        assertEquals(Optional.empty(), any.actor(new FakeHeaders("Authorization", "Bearer nope").request()));
    }
}
