package dev.detour.adapter.db;

import dev.detour.core.account.Account;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import dev.detour.core.alerts.Alert;
import dev.detour.core.alerts.AlertKind;
import dev.detour.core.alerts.PoolAlerts;
import dev.detour.core.alerts.PoolPicture;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.ibatis.session.SqlSession;

/**
 * W-1: pool alerts recorded inside the transaction that writes the state change (alert_outbox), so a
 * change that is durable is alerted, and one rolled back is not. The transitions are {@link PoolAlerts}'
 * on the one account (or group) before and after the write: the same rule the pool watch applies. A
 * write that changes no status records nothing, so the success path stays as it was.
 */
public final class AlertOutbox {
    /** What this records; the pool watch leaves these to it. */
    public static final Set<AlertKind> KINDS = Set.of(AlertKind.ACCOUNT_ERROR, AlertKind.ACCOUNT_REVOKED,
            AlertKind.ACCOUNT_RECOVERED, AlertKind.MODEL_ERROR, AlertKind.GROUP_HALTED);

    private AlertOutbox() {
    }

    /** The account's status and model rows before and after one write: its transitions, recorded. */
    public static void account(SqlSession s, Account before, List<ModelState> rowsBefore, Account after,
            List<ModelState> rowsAfter, Instant at) {
        List<Alert> alerts = PoolAlerts.changes(picture(before, rowsBefore), picture(after, rowsAfter), at);
        record(s, alerts.stream().filter(a -> KINDS.contains(a.kind())).toList());
    }

    /** S-9: a halt that begins with this write (the group was not halted at {@code at} before it). */
    public static void halt(SqlSession s, long groupId, String name, Instant haltedUntilBefore, Instant until,
            Instant at) {
        boolean was = haltedUntilBefore != null && haltedUntilBefore.isAfter(at);
        boolean is = until != null && until.isAfter(at);
        PoolPicture before = new PoolPicture(Map.of(), Map.of(), Map.of(groupId, new PoolPicture.GroupMark(name, was)),
                Map.of());
        PoolPicture after = new PoolPicture(Map.of(), Map.of(), Map.of(groupId, new PoolPicture.GroupMark(name, is)),
                Map.of());
        record(s, PoolAlerts.changes(before, after, at).stream().filter(a -> a.kind() == AlertKind.GROUP_HALTED)
                .toList());
    }

    private static void record(SqlSession s, List<Alert> alerts) {
        for (Alert a : alerts) {
            s.getMapper(AlertMapper.class).insertRecorded(new AlertOutboxRow(0, a.kind().wire(), a.object(),
                    cut(a.title(), 300), a.text(), a.at()));
        }
    }

    private static PoolPicture picture(Account account, List<ModelState> rows) {
        Map<String, PoolPicture.ModelMark> errored = new HashMap<>();
        for (ModelState row : rows) {
            if (row.status() == ModelStatus.ERROR) {
                errored.put("model:" + account.id() + ":" + row.modelKey(),
                        new PoolPicture.ModelMark(account.id(), account.name(), row.modelKey()));
            }
        }
        // usable only feeds group.unavailable, which the watch decides over the whole group
        return new PoolPicture(Map.of(account.id(), new PoolPicture.AccountMark(account.name(), account.groupId(),
                account.shownStatus(), true)), errored, Map.of(), Map.of());
    }

    private static String cut(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max);
    }
}
