package dev.detour.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.adapter.db.MyBatisRequestEvents;
import dev.detour.admin.port.LoggedRequest;
import dev.detour.admin.port.RequestFilter;
import dev.detour.core.ValidationException;
import dev.detour.testkit.Rows;
import dev.detour.testkit.TestDatabase;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** U-5 request log over 50,000 events: keyset pages visit each matching row exactly once, newest first. */
class RequestLogPagingIT {
    private static final int EVENTS = 50_000;
    private static RequestLog log;

    @BeforeAll
    static void fill() {
        TestDatabase.clean();
        Rows.insertEvents(EVENTS, "2026-11-01 00:00:00");
        log = new RequestLog(new MyBatisRequestEvents(TestDatabase.database()));
    }

    private static List<LoggedRequest> all(RequestFilter filter, int pageSize) {
        List<LoggedRequest> rows = new ArrayList<>();
        String cursor = null;
        do {
            RequestLog.Page page = log.page(filter, pageSize, cursor);
            assertTrue(page.items().size() <= pageSize);
            rows.addAll(page.items());
            cursor = page.nextCursor();
        } while (cursor != null);
        return rows;
    }

    private static void assertNewestFirstOnce(List<LoggedRequest> rows) {
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < rows.size(); i++) {
            assertTrue(seen.add(rows.get(i).id()), "row visited twice: " + rows.get(i).id());
            if (i > 0) {
                assertTrue(rows.get(i).id() < rows.get(i - 1).id(), "ids descend");
                assertTrue(!rows.get(i).createdAt().isAfter(rows.get(i - 1).createdAt()), "newest first");
            }
        }
    }

    @Test
    void pagingWithoutFiltersVisitsEveryEventExactlyOnceNewestFirst() {
        List<LoggedRequest> rows = all(RequestFilter.NONE, 200);
        assertEquals(EVENTS, rows.size());
        assertNewestFirstOnce(rows);
        assertEquals(Instant.parse("2026-11-01T00:00:00Z").plusSeconds(EVENTS - 1), rows.get(0).createdAt());
    }

    @Test
    void eachFilterPagesExactlyTheMatchingRows() {
        record Case(RequestFilter filter, String where) {
        }
        List<Case> cases = List.of(
                new Case(new RequestFilter(2L, null, null, null, null, null, null, null), "key_id = 2"),
                new Case(new RequestFilter(null, 3L, null, null, null, null, null, null), "account_id = 3"),
                new Case(new RequestFilter(null, null, 1L, null, null, null, null, null), "group_id = 1"),
                new Case(new RequestFilter(null, null, null, "m2", null, null, null, null), "requested_model = 'm2'"),
                new Case(new RequestFilter(null, null, null, null, "failure", null, null, null), "outcome = 'failure'"),
                new Case(new RequestFilter(null, null, null, null, null, 400, null, null), "status = 400"),
                new Case(new RequestFilter(null, 4L, null, null, "success", 200, null, null),
                        "account_id = 4 AND outcome = 'success' AND status = 200"),
                new Case(new RequestFilter(null, null, null, null, null, null, Instant.parse("2026-11-01T03:00:00Z"),
                        Instant.parse("2026-11-01T05:00:00Z")),
                        "created_at >= '2026-11-01 03:00:00' AND created_at < '2026-11-01 05:00:00'"));
        for (Case c : cases) {
            List<LoggedRequest> rows = all(c.filter(), 137);
            assertNewestFirstOnce(rows);
            assertEquals(Rows.number("SELECT COUNT(*) FROM request_events WHERE " + c.where()), rows.size(), c.where());
            List<String> expectedIds = Rows.strings("SELECT id FROM request_events WHERE " + c.where() + " ORDER BY id DESC");
            assertEquals(expectedIds, rows.stream().map(r -> Long.toString(r.id())).toList(), c.where());
        }
    }

    @Test
    void theLastPageHasNoCursorAndABadCursorIsAValidationError() {
        RequestLog.Page page = log.page(new RequestFilter(null, null, null, "no-such-model", null, null, null, null), 10, null);
        assertTrue(page.items().isEmpty());
        assertNull(page.nextCursor());
        Executable bad = () -> log.page(RequestFilter.NONE, 10, "not a cursor!");
        assertEquals("validation.cursor",
                org.junit.jupiter.api.Assertions.assertThrows(ValidationException.class, bad).code());
    }

    @Test
    void theFilteredPageQueriesUseAnIndexNotAFullScan() {
        for (String where : List.of("group_id = 1", "status = 400", "account_id = 3", "outcome = 'failure'",
                "key_id = 2", "requested_model = 'm1'")) {
            String sql = "EXPLAIN SELECT * FROM request_events WHERE " + where + " AND id < 40000 ORDER BY id DESC LIMIT 51";
            assertTrue(!"ALL".equals(Rows.column(sql, "type")), where + ": " + Rows.column(sql, "type"));
            assertTrue(Rows.column(sql, "key") != null, where);
        }
    }
}
