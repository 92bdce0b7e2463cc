package dev.detour.core.failure;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** F-8: reminders from the stored body or message, case-insensitive substring. */
class RemindersTest {
    static final String BUDGET_POOL_BODY = "{\n  \"error\": {\n    \"message\": \"Budget pool quota has been "
            + "exhausted. Please ask an administrator to increase the limit or select another budget pool.\",\n"
            + "    \"type\": \"bad_response_status_code\",\n    \"param\": \"\",\n"
            + "    \"code\": \"bad_response_status_code\"\n  }\n}";

    @Test
    void theSeedsBudgetPoolBodyGivesTheBudgetPoolReminder() {
        assertEquals(Set.of("budget_pool"), Reminders.of(BUDGET_POOL_BODY, "upstream returned 429"));
    }

    @Test
    void theBudgetPoolPhraseInTheMessageAloneIsEnoughInAnyCase() {
        assertEquals(Set.of("budget_pool"), Reminders.of(null, "oops: BUDGET POOL QUOTA HAS BEEN EXHAUSTED!"));
    }

    @Test
    void aSensitiveWordBodyGivesTheSensitiveWordReminder() {
        String body = "{\"error\":{\"code\":\"sensitive_words_detected\",\"message\":\"检测到敏感词\"}}";
        assertEquals(Set.of("sensitive_words"), Reminders.of(body, null));
        assertEquals(Set.of("sensitive_words"), Reminders.of(null, "Sensitive_Words_Detected in prompt"));
    }

    @Test
    void bothRemindersCanShowAndOrdinaryFailuresShowNone() {
        assertEquals(Set.of("sensitive_words", "budget_pool"),
                Reminders.of("sensitive_words_detected", "Budget pool quota has been exhausted"));
        assertEquals(Set.of(), Reminders.of("{\"error\":{\"message\":\"quota exhausted\"}}", "upstream returned 500"));
        assertEquals(Set.of(), Reminders.of(null, null));
    }
}
