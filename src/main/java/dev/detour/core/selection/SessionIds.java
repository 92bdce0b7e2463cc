package dev.detour.core.selection;

import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * S-6 / P-12: the conversation id a request is made sticky by. Agents say which session a request
 * belongs to in a header — Claude Code's {@code X-Claude-Code-Session-Id} (v2.1.86+), Codex's
 * {@code session_id} / {@code session-id} — and Claude Code also inside {@code metadata.user_id}:
 * {@code user_<hash>_account_<uuid or empty>_session_<uuid>} before v2.1.78, a JSON string
 * {@code {"device_id":…,"account_uuid":…,"session_id":…}} since. Those come first; the body fields
 * S-6 lists follow (the request peek orders them).
 */
public final class SessionIds {
    /** In this order, before any body field. */
    public static final List<String> HEADERS = List.of("x-claude-code-session-id", "session-id", "session_id");
    private static final String LEGACY_MARK = "_session_";
    private static final Pattern JSON_SESSION = Pattern.compile("\"session_id\"\\s*:\\s*\"([^\"\\\\]+)\"");

    private SessionIds() {
    }

    /** The first non-blank session header (by {@link #HEADERS} order), else {@code bodySessionId}. */
    public static String resolve(UnaryOperator<String> header, String bodySessionId) {
        for (String name : HEADERS) {
            String value = header.apply(name);
            if (value != null && !value.isBlank()) {
                return value.trim();
            }
        }
        return bodySessionId;
    }

    /** The session inside Claude Code's {@code metadata.user_id} (either format), or null when it has none. */
    public static String fromUserId(String userId) {
        if (userId == null) {
            return null;
        }
        String s = userId.trim();
        if (s.startsWith("{")) {
            Matcher m = JSON_SESSION.matcher(s);
            return m.find() && !m.group(1).isBlank() ? m.group(1) : null;
        }
        int mark = s.lastIndexOf(LEGACY_MARK);
        if (!s.startsWith("user_") || mark < 0 || mark + LEGACY_MARK.length() >= s.length()) {
            return null;
        }
        return s.substring(mark + LEGACY_MARK.length());
    }
}
