package dev.detour.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.ValidationException;
import java.util.List;
import java.util.Optional;

/** The request log (SPEC §9): events newest first with keyset paging on the event id. */
public final class RequestLog {
    public static final int MAX_LIMIT = 200;

    public record Page(List<LoggedRequest> items, String nextCursor) {
    }

    private final RequestEvents events;

    public RequestLog(RequestEvents events) {
        this.events = events;
    }

    /** @param cursor the previous page's next_cursor (an opaque id), or null for the newest page */
    public Page page(Long keyId, Long accountId, String model, String outcome, Integer limit, String cursor) {
        return page(new RequestFilter(keyId, accountId, null, model, outcome, null, null, null), limit, cursor);
    }

    /** Keyset paging (no OFFSET): each page continues below the last id of the one before. */
    public Page page(RequestFilter f, Integer limit, String cursor) {
        int size = limit == null ? 50 : limit;
        if (size < 1 || size > MAX_LIMIT) {
            throw new ValidationException("validation.limit", "limit", "limit must be between 1 and " + MAX_LIMIT);
        }
        Long before = cursor == null || cursor.isBlank() ? null : parseCursor(cursor);
        List<LoggedRequest> rows = events.page(f, before, size + 1);
        boolean more = rows.size() > size;
        List<LoggedRequest> items = more ? rows.subList(0, size) : rows;
        return new Page(items, more ? Long.toString(items.get(items.size() - 1).id(), 36) : null);
    }

    public Optional<LoggedRequest> find(String requestId) {
        return events.find(requestId);
    }

    private static Long parseCursor(String cursor) {
        try {
            return Long.parseLong(cursor, 36);
        } catch (NumberFormatException e) {
            throw new ValidationException("validation.cursor", "cursor", "cursor is not one this API returned");
        }
    }

    /** The SPEC §9 event document. */
    public static ObjectNode document(LoggedRequest e) {
        ObjectNode o = Documents.JSON.createObjectNode();
        o.put("id", e.requestId()).put("key_id", e.keyId()).put("endpoint", e.endpoint())
                .put("model", e.requestedModel()).put("model_key", e.modelKey()).put("stream", e.stream())
                .put("account_id", e.accountId()).put("group_id", e.groupId()).put("outcome", e.outcome())
                .put("status", e.status()).put("error_code", e.errorCode()).put("reason_code", e.reasonCode());
        o.set("attempts", tree(e.attemptsJson()));
        o.set("rejections", tree(e.rejectionsJson()));
        o.putObject("usage").put("input_tokens", e.inputTokens()).put("output_tokens", e.outputTokens())
                .put("cache_read_tokens", e.cacheReadTokens()).put("cache_write_tokens", e.cacheWriteTokens());
        // P-7': a stream that ended before any usage frame: its cost is unknown, not zero
        o.put("usage_missing", e.usageMissing());
        o.put("cost", e.costMicros() / 1_000_000.0).put("ttft_ms", e.ttftMs()).put("latency_ms", e.latencyMs())
                .put("queued_ms", e.queuedMs()).put("client_ip", e.clientIp()).put("created_at", e.createdAt().toString());
        return o;
    }

    private static JsonNode tree(String json) {
        try {
            return Documents.JSON.readTree(json);
        } catch (Exception ex) {
            return Documents.JSON.createArrayNode();
        }
    }
}
