package dev.detour.recovery;

/** {@link RecoveryFixture} for tests in other packages. */
public final class RecoveryFixtureAccess {
    private RecoveryFixtureAccess() {
    }

    public static void setStatus(long accountId, String status) {
        RecoveryFixture.setStatus(accountId, status);
    }
}
