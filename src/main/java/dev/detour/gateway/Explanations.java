package dev.detour.gateway;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.core.account.Account;
import dev.detour.core.selection.Candidate;
import dev.detour.core.selection.Plan;
import dev.detour.core.selection.Rejection;
import dev.detour.gateway.admission.SmartKeyFacts;
import dev.detour.gateway.live.PoolSnapshot;
import dev.detour.json.JsonFactories;
import java.time.Instant;

/**
 * E-1/E-2 explanation documents for key holders: routes are named by group name and account
 * alias only — never a base URL, a secret or the client's IP.
 */
public final class Explanations {
    private static final ObjectMapper JSON = JsonFactories.mapper();
    private final SmartKeyFacts smart;

    public Explanations(SmartKeyFacts smart) {
        this.smart = smart;
    }

    /**
     * The explain document of one stored event ({@code event} is the SPEC §9 request document):
     * the chosen route, the attempt chain and the routes passed over, each one cheaper than the chosen
     * route marked (none when no route was chosen: a refusal names no misleading "cheaper" route).
     */
    public ObjectNode explain(PoolSnapshot.View view, JsonNode event) {
        ObjectNode o = JSON.createObjectNode();
        for (String field : new String[] {"id", "endpoint", "model", "model_key", "stream", "outcome", "status",
                "error_code", "reason_code", "client_protocol", "upstream_protocol", "usage", "cost", "ttft_ms", "latency_ms", "queued_ms", "created_at"}) {
            o.set(field, event.get(field));
        }
        Long chosen = event.path("account_id").isNumber() ? event.path("account_id").asLong() : null;
        o.set("route", chosen == null ? null : route(view, chosen));
        long chosenRatio = chosen == null ? Long.MAX_VALUE : ratio(view, chosen);
        ArrayNode attempts = o.putArray("attempts");
        event.path("attempts").forEach(a -> {
            ObjectNode step = route(view, a.path("account_id").asLong());
            step.set("status", a.get("status"));
            step.set("failure_kind", a.get("failure_kind"));
            step.set("action", a.get("action"));
            if (a.path("bridged_to").isTextual()) { // B-1: which protocols the bridge joined for this attempt
                step.set("bridged_from", a.get("bridged_from"));
                step.set("bridged_to", a.get("bridged_to"));
            }
            attempts.add(step);
        });
        ArrayNode passed = o.putArray("passed_over");
        event.path("rejections").forEach(r -> {
            ObjectNode step = route(view, r.path("account_id").asLong());
            step.set("reason", r.get("reason"));
            // a refusal (no route chosen, e.g. an unmapped model) has nothing to be cheaper than
            step.put("cheaper", chosen != null && ratio(view, r.path("account_id").asLong()) < chosenRatio);
            passed.add(step);
        });
        return o;
    }

    /** E-2 route preview: the ordered candidates and the rejections of a dry-run plan. */
    public ObjectNode preview(PoolSnapshot.View view, String model, String endpoint, Plan plan, Instant now) {
        ObjectNode o = JSON.createObjectNode();
        o.put("model", model).put("endpoint", endpoint)
                .put("error_code", plan.isSelected() ? null : plan.error().code())
                .put("reason_code", plan.reason() == null ? null : plan.reason().wire());
        ArrayNode candidates = o.putArray("candidates");
        for (Candidate c : plan.candidates()) {
            candidates.add(route(view, c.accountId()).put("reason", c.why().wire()));
        }
        ArrayNode rejections = o.putArray("rejections");
        for (Rejection r : plan.rejections()) {
            ObjectNode step = route(view, r.accountId()).put("reason", r.reason().wire());
            step.put("retry_in_seconds", r.until() == null ? null
                    : Math.max(0, java.time.Duration.between(now, r.until()).toSeconds()));
            rejections.add(step);
        }
        return o;
    }

    private ObjectNode route(PoolSnapshot.View view, long accountId) {
        ObjectNode o = JSON.createObjectNode();
        Account account = view.byId().get(accountId);
        o.put("account_id", accountId).put("account", account == null ? "#" + accountId : account.name());
        o.put("group", account == null ? null : smart.groupName(account.groupId()));
        o.put("ratio_ppm", ratio(view, accountId));
        return o;
    }

    private static long ratio(PoolSnapshot.View view, long accountId) {
        Account account = view.byId().get(accountId);
        if (account == null) {
            return Long.MAX_VALUE;
        }
        var group = view.groups().get(account.groupId());
        return group == null ? 1_000_000L : group.ratioPpm();
    }
}
