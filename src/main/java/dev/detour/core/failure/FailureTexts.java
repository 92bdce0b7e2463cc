package dev.detour.core.failure;

import java.util.List;
import java.util.Locale;

/**
 * The fixed phrase lists of F-1, F-4 and F-5. Only these explicit lists count: broad words such as
 * "quota", "limit" or "billing" alone never make a quota/billing verdict (F-7).
 */
public final class FailureTexts {
    /** F-1: the credential itself is void. */
    static final List<String> PERMANENT = List.of(
            "invalid_grant", "refresh token has been revoked", "token has been revoked", "官方 oauth 凭证已失效");

    /** F-4: a non-JSON 2xx text body containing one of these is a failure. */
    static final List<String> PLAIN_TEXT_FAILURE = List.of(
            "stream disconnected before completion", "gateway timeout", "bad gateway", "service unavailable",
            "connection reset", "temporarily unavailable", "our servers are currently overloaded",
            "insufficient_quota", "quota exhausted", "额度已耗尽", "额度耗尽", "配额已耗尽");

    /** F-5: error.code (normalized) containing one of these is quota exhaustion. */
    static final List<String> QUOTA_CODES = List.of("insufficientquota", "quotaexhausted", "usageexhausted");

    /** F-5: CJK phrases, compared with whitespace removed. */
    static final List<String> QUOTA_CJK = List.of(
            "额度已耗尽", "额度耗尽", "额度已用完", "配额已耗尽", "配额耗尽", "配额已用完", "余额不足", "积分不足");

    /** F-5: ASCII phrases, compared lower-cased with whitespace runs collapsed. */
    static final List<String> QUOTA_ASCII = List.of(
            "quota exhausted", "quota has been exhausted", "insufficient quota", "insufficient balance",
            "insufficient credits", "used all the included free usage", "free usage exhausted");

    static final String NEW_API_ERROR = "new_api_error";
    static final String NEW_API_BALANCE_GONE = "用户额度不足";

    private FailureTexts() {
    }

    /** F-1: the text names a void credential. */
    public static boolean isPermanentText(String text) {
        return text != null && containsAny(text.toLowerCase(Locale.ROOT), PERMANENT);
    }

    /** F-4: a non-JSON text body that is a failure. */
    public static boolean isPlainTextFailure(String text) {
        return text != null && containsAny(text.toLowerCase(Locale.ROOT), PLAIN_TEXT_FAILURE);
    }

    /** F-5: quota exhaustion by status 402, normalized code, message phrase, or new-api type + prefix. */
    public static boolean isQuotaExhausted(Integer status, String code, String type, String message) {
        if (status != null && status == 402) {
            return true;
        }
        if (code != null && containsAny(normalizeCode(code), QUOTA_CODES)) {
            return true;
        }
        if (message != null && isQuotaMessage(message)) {
            return true;
        }
        // The gateway's own spent balance: the type inside the error object AND the message prefix;
        // the same text relayed from its upstream, or under another type, is not this account's quota.
        return type != null && type.trim().equalsIgnoreCase(NEW_API_ERROR)
                && message != null && message.stripLeading().startsWith(NEW_API_BALANCE_GONE);
    }

    static boolean isQuotaMessage(String message) {
        String lower = message.toLowerCase(Locale.ROOT);
        String noWhitespace = lower.replaceAll("\\s+", "");
        String collapsed = lower.replaceAll("\\s+", " ");
        return containsAny(noWhitespace, QUOTA_CJK) || containsAny(collapsed, QUOTA_ASCII);
    }

    /** Lower-cased with {@code _ - :} and spaces removed. */
    static String normalizeCode(String code) {
        return code.toLowerCase(Locale.ROOT).replaceAll("[_\\-:\\s]", "");
    }

    /** F-4 parenthetical: an overloaded answer never flips a status. */
    static boolean isOverloaded(Integer status, String... texts) {
        if (status != null && status == 529) {
            return true;
        }
        for (String t : texts) {
            if (t != null && t.toLowerCase(Locale.ROOT).contains("overloaded")) {
                return true;
            }
        }
        return false;
    }

    private static boolean containsAny(String haystack, List<String> needles) {
        for (String n : needles) {
            if (haystack.contains(n)) {
                return true;
            }
        }
        return false;
    }
}
