package dev.detour.admin;

import dev.detour.admin.port.LoggedRequest;
import dev.detour.admin.port.RequestEvents;
import dev.detour.admin.port.RequestFilter;
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
}
