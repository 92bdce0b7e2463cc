package dev.detour.core.recovery;

import dev.detour.core.account.Account;
import dev.detour.core.account.ModelMapping;
import dev.detour.core.account.ModelState;
import dev.detour.core.account.ModelStatus;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * R-3 healthcheck: which client-side model name to probe. The model most in need — a row that is
 * not paused and whose cooldown has expired, oldest {@code updated_at} first — mapped back from
 * its model key to a request-side name; else the first non-catch-all mapping. Probing only the
 * first mapping forever would never notice that the third model is the broken one.
 */
public final class ProbeTarget {
    private ProbeTarget() {
    }

    public static Optional<String> choose(Account account, List<ModelState> rows, Instant now) {
        List<ModelState> inNeed = rows.stream()
                .filter(r -> r.accountId() == account.id() && r.status() != ModelStatus.PAUSED && !r.coolingAt(now))
                .sorted(Comparator.comparing(ModelState::updatedAt, Comparator.nullsFirst(Comparator.naturalOrder()))
                        .thenComparing(ModelState::modelKey))
                .toList();
        for (ModelState row : inNeed) {
            Optional<String> name = clientName(account, row.modelKey());
            if (name.isPresent()) {
                return name;
            }
        }
        // P-12: a pattern is no name to send; its first concrete name is what clientName found above
        return account.mappings().entries().stream().filter(m -> !m.isPattern()).map(ModelMapping::from)
                .findFirst();
    }

    /** Pass-through / catch-all-only accounts speak the key verbatim; mapped ones need a mapping back. */
    static Optional<String> clientName(Account account, String modelKey) {
        if (account.mappings().hasOnlyCatchAll()) {
            return Optional.of(modelKey);
        }
        List<String> names = account.mappings().clientNamesFor(modelKey);
        if (!names.isEmpty()) {
            return Optional.of(names.get(0));
        }
        // a catch-all that passes names through still serves the key under its own name
        boolean passThroughCatchAll = account.mappings().entries().stream()
                .anyMatch(m -> m.isCatchAll() && m.passesNameThrough());
        return passThroughCatchAll ? Optional.of(modelKey) : Optional.empty();
    }
}
