package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** SPEC §12 C-1': the console's new-account form starts with cooldown on, 10 s. */
class AccountFormDefaultsTest {

    @Test
    void theNewAccountFormHasCooldownCheckedWithTenSeconds() {
        var values = AccountFormValues.blank();
        assertEquals("on", values.get("failure_policy.cooldown_enabled"));
        assertEquals("10", values.get("failure_policy.cooldown_seconds"));
    }
}
