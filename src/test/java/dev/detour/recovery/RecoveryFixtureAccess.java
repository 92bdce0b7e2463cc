package dev.detour.recovery;

/** {@link RecoveryFixture} for tests in other packages. */
public final class RecoveryFixtureAccess {
    private RecoveryFixtureAccess() {
    }

    public static void setStatus(long accountId, String status) {
        RecoveryFixture.setStatus(accountId, status);
    }

    /** A model row cooling for 10 minutes, as the failure engine would have left it. */
    public static void coolingModel(dev.detour.testkit.Gateway gw, long accountId, String modelKey) {
        RecoveryFixture.modelRow(gw, accountId, modelKey, "ok", true);
    }
}
