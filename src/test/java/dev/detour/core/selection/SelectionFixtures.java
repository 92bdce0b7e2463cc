package dev.detour.core.selection;

import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Shared bits of the ranking tables: a fixed now, the plan call, and compact group/route builders. */
final class SelectionFixtures {
    static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
    static final String MODEL = "gpt-5.6-sol";
    static final SelectionRequest SOL = SelectionRequest.of(EndpointFamily.CHAT_COMPLETIONS, MODEL);

    private SelectionFixtures() {
    }

    static Plan plan(SelectionRequest request, long seed, List<Account> accounts) {
        return new SelectionPipeline().plan(request, accounts, Map.of(), NOW, new SeededRandom(seed));
    }

    static Plan plan(SelectionRequest request, List<Account> accounts) {
        return plan(request, 42, accounts);
    }

    static List<Long> ids(Plan plan) {
        return plan.candidates().stream().map(Candidate::accountId).toList();
    }

    /** Groups from (id, ratio ppm) pairs. */
    static Map<Long, GroupView> groups(long... idAndRatio) {
        Map<Long, GroupView> groups = new HashMap<>();
        for (int i = 0; i < idAndRatio.length; i += 2) {
            groups.put(idAndRatio[i], new GroupView(idAndRatio[i], idAndRatio[i + 1], null));
        }
        return groups;
    }

    static List<Long> parseIds(String csv) {
        return csv.isBlank() ? List.of() : Arrays.stream(csv.split(" ")).map(Long::parseLong).toList();
    }
}
