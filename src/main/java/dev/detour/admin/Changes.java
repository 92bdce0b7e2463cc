package dev.detour.admin;

/** The stores one unit of work sees; what it writes commits with the rest of it. */
public interface Changes {
    Groups groups();

    SmartRules smartRules();

    ModelStates modelStates();

    StoredSettings settings();

    RecoveryActions recovery();

    void audit(AuditEntry entry);

    /** O-4: every instance reloads its pool snapshot. */
    void bumpPoolRevision();
}
