package dev.detour.core.alerts;

import dev.detour.core.alerts.PoolPicture.AccountMark;
import dev.detour.core.alerts.PoolPicture.GroupMark;
import dev.detour.core.alerts.PoolPicture.KeyMark;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * W-1: the alerts between two pictures of the pool. Only transitions count: an account already in
 * error in the earlier picture, or a key already past 80 %, gives nothing again (the first picture
 * after a start is the baseline). Objects that appear or vanish (created, deleted) give nothing.
 */
public final class PoolAlerts {
    private PoolAlerts() {
    }

    public static List<Alert> changes(PoolPicture before, PoolPicture after, Instant now) {
        List<Alert> alerts = new ArrayList<>();
        after.accounts().forEach((id, current) -> {
            AccountMark was = before.accounts().get(id);
            if (was != null) {
                account(id, was, current, now, alerts);
            }
        });
        after.erroredModels().forEach((object, row) -> {
            AccountMark account = after.accounts().get(row.accountId());
            if (!before.erroredModels().containsKey(object) && before.accounts().containsKey(row.accountId())
                    && (account == null || !down(account))) { // an account alert already covers its rows
                alerts.add(new Alert(AlertKind.MODEL_ERROR, object, "model " + row.modelKey() + " of account "
                        + row.accountName() + " is in error", "account " + row.accountName() + " (" + row.accountId()
                        + ") no longer serves " + row.modelKey() + " until it recovers", now));
            }
        });
        after.groups().forEach((id, group) -> {
            GroupMark was = before.groups().get(id);
            if (was != null) {
                group(id, was, group, before.accounts(), after.accounts(), now, alerts);
            }
        });
        after.keys().forEach((id, key) -> {
            KeyMark was = before.keys().get(id);
            int step = key.spendStep();
            if (was != null && step > was.spendStep()) {
                AlertKind kind = step == 100 ? AlertKind.KEY_SPEND_100 : AlertKind.KEY_SPEND_80;
                alerts.add(new Alert(kind, "key:" + id, "key " + key.name() + " reached " + step
                        + " % of its spend limit", "key " + key.name() + " (" + id + ") has spent "
                        + key.spentMicros() + " of " + key.limitMicros() + " micros"
                        + (step == 100 ? "; its requests are refused (key.spend_limit)" : ""), now));
            }
        });
        after.spendWindows().forEach((object, window) -> {
            PoolPicture.WindowMark was = before.spendWindows().get(object);
            int step = window.spendStep();
            if (was != null && step > was.spendStep()) { // a window that rolled below and climbs again: news again
                AlertKind kind = step == 100 ? AlertKind.KEY_WINDOW_SPEND_100 : AlertKind.KEY_WINDOW_SPEND_80;
                alerts.add(new Alert(kind, object, "key " + window.keyName() + " reached " + step
                        + " % of its " + window.window() + " spend window", "key " + window.keyName() + " ("
                        + window.keyId() + ") has spent " + window.spentMicros() + " of " + window.limitMicros()
                        + " micros in its rolling " + window.window() + " window"
                        + (step == 100 ? "; its requests are refused (key.window_spend_limit) until spend leaves"
                        + " the window" : ""), now));
            }
        });
        return alerts;
    }

    private static void account(long id, AccountMark was, AccountMark is, Instant now, List<Alert> alerts) {
        if (was.shownStatus().equals(is.shownStatus())) {
            return;
        }
        String object = "account:" + id;
        String who = "account " + is.name() + " (" + id + ")";
        AlertKind kind = switch (is.shownStatus()) {
            case "error" -> AlertKind.ACCOUNT_ERROR;
            case "revoked" -> AlertKind.ACCOUNT_REVOKED;
            case "config_error" -> AlertKind.ACCOUNT_CONFIG_ERROR;
            case "ok", "warning" -> down(was) ? AlertKind.ACCOUNT_RECOVERED : null;
            default -> null; // paused: a person did it
        };
        if (kind == null) {
            return;
        }
        String title = kind == AlertKind.ACCOUNT_RECOVERED ? who + " recovered"
                : who + " is " + is.shownStatus();
        String text = kind == AlertKind.ACCOUNT_RECOVERED ? who + " is back in service (was " + was.shownStatus() + ")"
                : who + " went from " + was.shownStatus() + " to " + is.shownStatus() + " and is out of service";
        alerts.add(new Alert(kind, object, title, text, now));
    }

    private static boolean down(AccountMark mark) {
        return switch (mark.shownStatus()) {
            case "error", "revoked", "config_error" -> true;
            default -> false;
        };
    }

    private static void group(long id, GroupMark was, GroupMark is, Map<Long, AccountMark> accountsBefore,
            Map<Long, AccountMark> accountsAfter, Instant now, List<Alert> alerts) {
        String object = "group:" + id;
        if (is.halted() && !was.halted()) {
            alerts.add(new Alert(AlertKind.GROUP_HALTED, object, "group " + is.name() + " is halted",
                    "group " + is.name() + " (" + id + ") is halted (S-9): none of its accounts is tried until"
                            + " the halt ends", now));
        }
        if (allUnavailable(id, accountsAfter) && !allUnavailable(id, accountsBefore)) {
            alerts.add(new Alert(AlertKind.GROUP_UNAVAILABLE, object, "every account of group " + is.name()
                    + " is unavailable", "no account of group " + is.name() + " (" + id + ") can serve now", now));
        }
    }

    /** A group with accounts, none of them usable. */
    private static boolean allUnavailable(long groupId, Map<Long, AccountMark> accounts) {
        boolean any = false;
        for (AccountMark a : accounts.values()) {
            if (a.groupId() == groupId) {
                if (a.usable()) {
                    return false;
                }
                any = true;
            }
        }
        return any;
    }
}
