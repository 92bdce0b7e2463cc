package dev.detour.admin.board;

import dev.detour.admin.AccountAdmin;
import dev.detour.admin.GroupAdmin;
import dev.detour.admin.ModelAdmin;
import dev.detour.admin.port.AccountGroup;
import dev.detour.admin.port.StoredAccount;
import dev.detour.core.account.Account;
import dev.detour.core.account.AccountFailureState;
import dev.detour.core.account.ModelState;
import dev.detour.core.failure.Reminders;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.LongToIntFunction;
import java.util.stream.Collectors;

/**
 * The console's live view of the pool (U-2, U-3, U-4): account cards in pool order (priority, then
 * name) from three reads — accounts, groups, all model rows — so a 5 s poll of 200 accounts stays cheap.
 */
public final class AccountBoard {
    private final AccountAdmin accounts;
    private final GroupAdmin groups;
    private final ModelAdmin models;
    private final LongToIntFunction inFlight;
    private final Clock clock;

    public AccountBoard(AccountAdmin accounts, GroupAdmin groups, ModelAdmin models, LongToIntFunction inFlight,
            Clock clock) {
        this.accounts = accounts;
        this.groups = groups;
        this.models = models;
        this.inFlight = inFlight;
        this.clock = clock;
    }

    public List<AccountCard> cards(BoardFilter filter) {
        Instant now = clock.instant();
        Map<Long, AccountGroup> groupsById = groups.list().stream().collect(Collectors.toMap(AccountGroup::id, Function.identity()));
        Map<Long, List<ModelState>> rows = models.allRows().stream().collect(Collectors.groupingBy(ModelState::accountId));
        return accounts.list().stream()
                .filter(a -> !a.account().archived())
                .map(a -> card(a, groupsById.get(a.config().groupId()), rows.getOrDefault(a.id(), List.of()), now))
                .filter(filter::matches)
                .sorted(Comparator.comparingInt(AccountCard::priority).thenComparing(AccountCard::name))
                .toList();
    }

    /** D-4: some account's upstream key does not decrypt, the sign of a lost or replaced master key. */
    public boolean anyKeyUnreadable() {
        return accounts.list().stream().anyMatch(a -> a.unreadableFields().contains("api_key"));
    }

    public Optional<AccountCard> card(long accountId) {
        return cards(BoardFilter.NONE).stream().filter(c -> c.id() == accountId).findFirst();
    }

    /** U-4 模型状态: every known model — mapped model keys first, then any other row — healthy ones included. */
    public List<ModelLine> knownModels(StoredAccount stored) {
        Instant now = clock.instant();
        Account account = stored.account();
        Map<String, ModelState> rows = models.rows(account.id()).stream()
                .collect(Collectors.toMap(ModelState::modelKey, Function.identity()));
        List<String> keys = new ArrayList<>(account.mappings().modelKeys());
        rows.keySet().stream().sorted().filter(k -> !keys.contains(k)).forEach(keys::add);
        return keys.stream().map(k -> ModelLine.of(k, account.mappings(), rows.get(k), now)).toList();
    }

    public List<AccountGroup> groups() {
        return groups.list();
    }

    private AccountCard card(StoredAccount stored, AccountGroup group, List<ModelState> rows, Instant now) {
        Account a = stored.account();
        AccountFailureState f = a.failure();
        Instant cooldownUntil = AccountFailureState.later(f.nextRetryAt(), f.cooldownUntil());
        long cooldown = AccountStateView.remainingSeconds(cooldownUntil, now);
        List<ModelLine> unavailable = rows.stream().filter(r -> r.unavailableAt(now))
                .sorted(Comparator.comparing(ModelState::modelKey))
                .map(r -> ModelLine.of(r.modelKey(), a.mappings(), r, now)).toList();
        Set<String> reminders = new TreeSet<>(Reminders.of(f.lastFailureResponse(), f.lastFailureMessage()));
        rows.forEach(r -> reminders.addAll(Reminders.of(r.lastFailureResponse(), r.lastFailureMessage())));
        long total = a.successCount() + a.errorCount();
        Integer successRate = total == 0 ? null : (int) Math.round(100.0 * a.successCount() / total);
        return new AccountCard(a.id(), a.name(), stored.groupName(), group == null ? null : group.color(),
                a.platform().wire(), a.priority(), a.weight(), a.enabled(), a.shownStatus(), f.transientFailureCount(),
                inFlight.applyAsInt(a.id()), a.maxInFlight(), a.lastUsedAt(), successRate, cooldown,
                cooldown > 0 ? cooldownUntil : null, unavailable, List.copyOf(reminders), protection(f, now),
                a.configError());
    }

    /** C-6: an open time that has passed but is still recorded means half-open (the next request is the trial). */
    private static AccountCard.Protection protection(AccountFailureState f, Instant now) {
        Instant openUntil = f.breakerOpenUntil();
        return new AccountCard.Protection(AccountStateView.remainingSeconds(openUntil, now),
                openUntil != null && !openUntil.isAfter(now), f.backoffStreak());
    }
}
