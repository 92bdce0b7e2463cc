package dev.detour.adapter.db;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.FailurePolicy;
import org.junit.jupiter.api.Test;

/** SPEC §12 C-1': new accounts default to cooldown on (10 s); stored accounts keep what they had. */
class FailurePolicyDefaultsTest {

    @Test
    void aNewAccountAndAPartialPolicyObjectDefaultToCooldownOnForTenSeconds() {
        assertTrue(FailurePolicy.DEFAULTS.cooldownEnabled());
        assertEquals(10, FailurePolicy.DEFAULTS.cooldownSeconds());
        FailurePolicy partial = FailurePolicy.withDefaults(3, null, null, null, null, null, null, null);
        assertTrue(partial.cooldownEnabled());
        assertEquals(3, partial.retryCount());
    }

    @Test
    void aStoredPolicyKeepsItsOwnCooldownSetting() {
        FailurePolicy off = AccountJsonColumns.readFailurePolicy(AccountJsonColumns.writeFailurePolicy(
                new FailurePolicy(2, 200, false, 10, 10, true, true, 1800)));
        assertFalse(off.cooldownEnabled());
        assertTrue(AccountJsonColumns.readFailurePolicy(AccountJsonColumns.writeFailurePolicy(FailurePolicy.DEFAULTS))
                .cooldownEnabled());
    }

    @Test
    void aStoredPolicyThatNeverStatedCooldownReadsAsTheOldDefaultOff() {
        assertFalse(AccountJsonColumns.readFailurePolicy(null).cooldownEnabled());
        assertFalse(AccountJsonColumns.readFailurePolicy("{\"retry_count\":1}").cooldownEnabled());
        assertEquals(1, AccountJsonColumns.readFailurePolicy("{\"retry_count\":1}").retryCount());
        assertFalse(AccountJsonColumns.readFailurePolicy("not json").cooldownEnabled());
    }
}
