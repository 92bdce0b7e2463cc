package dev.detour.adapter.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class DatabaseLockdownTest {

    @Test
    void generatedPasswordsAreLongUrlSafeAndNeverRepeat() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 1_000; i++) {
            String password = DatabaseLockdown.newPassword();
            assertEquals(48, password.length(), password);
            assertTrue(password.matches("[A-Za-z0-9_-]+"), password);
            assertTrue(seen.add(password), "repeated " + password);
        }
    }

    @Test
    void theProvisioningSqlTakesNothingThatCouldLeaveItsStringLiteral() {
        String sneaky = "a".repeat(40) + "'; DROP DATABASE detour; --";
        assertThrows(IllegalArgumentException.class, () -> DatabaseLockdown.provisioningSql("detour", sneaky));
        assertThrows(IllegalArgumentException.class, () -> DatabaseLockdown.provisioningSql("detour", "short"));
        assertThrows(IllegalArgumentException.class,
                () -> DatabaseLockdown.provisioningSql("x`; --", DatabaseLockdown.newPassword()));
    }
}
