package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.account.Account;
import dev.detour.core.cooldown.RateLimitLedger;
import dev.detour.core.selection.GroupView;
import dev.detour.gateway.live.PoolSnapshot;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongToIntFunction;

/**
 * Public {@code GET /status} (C-7, seed pool-mechanism): per group, the available / cooling /
 * halted account counts, and per account alias its state, in-flight count and rate-limited
 * models (until, reset_at when different, reason). From the in-memory snapshot; no secrets, no
 * URLs, no keys.
 */
public final class StatusServlet extends HttpServlet {
    private final transient PoolSnapshot snapshot;
    private final transient LongToIntFunction inFlight;
    private final transient Clock clock;

    public StatusServlet(PoolSnapshot snapshot, LongToIntFunction inFlight, Clock clock) {
        this.snapshot = snapshot;
        this.inFlight = inFlight;
        this.clock = clock;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        byte[] body = Documents.JSON.writeValueAsBytes(document(snapshot.view(), clock.instant()));
        response.setStatus(200);
        response.setContentType("application/json");
        response.setHeader("cache-control", "no-store");
        response.getOutputStream().write(body);
    }

    ObjectNode document(PoolSnapshot.View view, Instant now) {
        ObjectNode root = Documents.JSON.createObjectNode();
        Map<Long, ObjectNode> groups = new LinkedHashMap<>();
        ArrayNode list = root.putArray("groups");
        for (Account account : view.accounts()) {
            ObjectNode group = groups.computeIfAbsent(account.groupId(), id -> list.addObject()
                    .put("name", name(view.groups().get(id), id)).put("available", 0).put("cooling", 0)
                    .put("halted", 0));
            GroupView gv = view.groups().get(account.groupId());
            String state = stateOf(account, gv, now);
            if (!state.equals("unavailable")) {
                group.put(state, group.path(state).asInt() + 1);
            }
            ObjectNode a = group.withArray("accounts").addObject().put("alias", account.name()).put("state", state)
                    .put("in_flight", inFlight.applyAsInt(account.id()));
            ArrayNode limited = a.putArray("rate_limited_models");
            for (RateLimitLedger.Entry e : RateLimitLedger.of(view.rowsOf(account.id()), now)) {
                ObjectNode m = limited.addObject().put("model", e.model()).put("until", e.until().toString());
                if (e.resetAt() != null) {
                    m.put("reset_at", e.resetAt().toString());
                }
                m.put("reason", e.reason());
            }
        }
        groups.forEach((id, g) -> {
            GroupView gv = view.groups().get(id);
            g.put("halted_until", gv != null && gv.haltedAt(now) ? gv.haltedUntil().toString() : null);
        });
        return root;
    }

    private static String stateOf(Account account, GroupView group, Instant now) {
        if (account.hasConfigError() || !account.enabled()
                || account.status() != dev.detour.core.account.AccountStatus.OK) {
            return "unavailable";
        }
        if (group != null && group.haltedAt(now)) {
            return "halted";
        }
        Instant blocked = account.failure().blockedUntil();
        return blocked != null && blocked.isAfter(now) ? "cooling" : "available";
    }

    private static String name(GroupView group, long id) {
        return group != null && group.name() != null ? group.name() : "group-" + id;
    }
}
