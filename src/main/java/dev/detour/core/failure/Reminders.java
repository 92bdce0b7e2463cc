package dev.detour.core.failure;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/** F-8: plain-words reminders for two relay-side failures, shown in the account's hover panel. */
public final class Reminders {
    public static final String SENSITIVE_WORDS = "sensitive_words";
    public static final String BUDGET_POOL = "budget_pool";

    private Reminders() {
    }

    /**
     * Case-insensitive substring in either field: the quota channel stores the message verbatim, while
     * a status-code failure keeps the original wording only inside the body.
     */
    public static Set<String> of(String lastFailureResponse, String lastFailureMessage) {
        String text = (lastFailureResponse == null ? "" : lastFailureResponse) + "\n"
                + (lastFailureMessage == null ? "" : lastFailureMessage);
        String lower = text.toLowerCase(Locale.ROOT);
        Set<String> reminders = new LinkedHashSet<>();
        if (lower.contains("sensitive_words_detected")) {
            reminders.add(SENSITIVE_WORDS);
        }
        if (lower.contains("budget pool quota has been exhausted")) {
            reminders.add(BUDGET_POOL);
        }
        return reminders;
    }
}
