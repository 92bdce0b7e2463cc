package dev.detour.admin.board;

import java.util.Locale;

/**
 * The accounts page filters (U-2): group name, status (an account status, {@code failing} = a
 * transient count above 0, {@code cooling} = account cooldown, {@code models} = some model
 * unavailable), only problems, and a case-insensitive name search. Blank = no filter.
 */
public record BoardFilter(String group, String status, boolean onlyProblems, String query) {
    public static final BoardFilter NONE = new BoardFilter("", "", false, "");

    public BoardFilter {
        group = group == null ? "" : group.strip();
        status = status == null ? "" : status.strip();
        query = query == null ? "" : query.strip();
    }

    public boolean matches(AccountCard card) {
        return (group.isEmpty() || group.equals(card.group()))
                && statusMatches(card)
                && (!onlyProblems || card.problem())
                && (query.isEmpty() || card.name().toLowerCase(Locale.ROOT).contains(query.toLowerCase(Locale.ROOT)));
    }

    private boolean statusMatches(AccountCard card) {
        return switch (status) {
            case "" -> true;
            case "failing" -> card.transientFailures() > 0;
            case "cooling" -> card.cooldownSeconds() > 0;
            case "models" -> card.unavailableCount() > 0;
            case "disabled" -> !card.enabled();
            default -> status.equals(card.status());
        };
    }
}
