package dev.detour.admin.port;

import java.util.List;

/** The stores one unit of work sees; what it writes commits with the rest of it. */
public interface Changes {
    Accounts accounts();

    Groups groups();

    DetourKeys keys();

    SmartRules smartRules();

    ModelStates modelStates();

    StoredSettings settings();

    RecoveryActions recovery();

    void audit(AuditEntry entry);

    /** U-6: newest first. */
    List<AuditEntry> recentAudit(int limit);

    /** O-4: every instance reloads its pool snapshot. */
    void bumpPoolRevision();
}
