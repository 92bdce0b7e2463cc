package dev.detour.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import dev.detour.App;
import dev.detour.testkit.Gateway;
import dev.detour.testkit.TestApp;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * G-3: a runtime setting changed through one instance is in force on another at its next snapshot reload
 * (the refresher's once-a-second revision read; the test calls it), not at the 5-minute housekeeping.
 */
class SettingsAcrossInstancesIT {
    private Gateway gw;
    private App second;

    @BeforeEach
    void start() {
        gw = Gateway.start();
    }

    @AfterEach
    void stop() {
        if (second != null) {
            second.close();
        }
        gw.close();
    }

    @Test
    void aSettingChangedOnOneInstanceIsInForceOnAnotherAtItsNextReload() {
        second = TestApp.start(gw.clock);
        long before = second.settings().current().values().get("queue_wait_seconds");
        long changed = before == 7 ? 8 : 7;
        gw.admin("PUT", "/settings", "{\"queue_wait_seconds\":" + changed + "}");
        assertNotEquals(changed, (long) second.settings().current().values().get("queue_wait_seconds"),
                "not seen before the second instance reloads");

        second.snapshot().refreshIfChanged(); // the second instance's once-a-second revision read
        assertEquals(changed, (long) second.settings().current().values().get("queue_wait_seconds"));
    }
}
