package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.admin.port.AccountPatch;
import dev.detour.core.account.EndpointFamily;
import dev.detour.core.account.Protocols;
import dev.detour.core.ValidationException;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** JSON body → {@link AccountPatch} with the field names of SPEC §9; unknown members are ignored. */
final class AccountJson {
    private AccountJson() {
    }

    static AccountPatch patch(ObjectNode body) {
        JsonFields f = new JsonFields(body, "");
        return new AccountPatch(
                f.text("name", "validation.name"),
                f.text("group", "validation.group"),
                f.longValue("group_id", "validation.group"),
                f.text("platform", "validation.platform"),
                f.text("base_url", "validation.base_url"),
                f.text("api_key", "validation.api_key"),
                PolicyJson.mappings(f),
                families(f),
                protocols(f),
                f.integer("priority", "validation.priority"),
                f.integer("weight", "validation.weight"),
                f.bool("enabled", "validation.enabled"),
                f.integer("max_in_flight", "validation.max_in_flight"),
                f.nullableLong("quota_remaining", "validation.quota_remaining"),
                f.nullableText("notes", "validation.notes"),
                PolicyJson.failurePolicy(f),
                PolicyJson.recovery(f),
                PolicyJson.breaker(f),
                PolicyJson.backoff(f),
                PolicyJson.anthropicBeta(f),
                f.bool("bridge_reasoning", "validation.bridge_reasoning"));
    }

    /** B-1: absent → keep; null → the platform's default; a list → exactly those (validation.protocols). */
    private static Optional<Set<EndpointFamily>> protocols(JsonFields f) {
        if (!f.has("protocols")) {
            return null;
        }
        if (f.node("protocols").isNull()) {
            return Optional.empty();
        }
        Set<EndpointFamily> protocols = EnumSet.noneOf(EndpointFamily.class);
        for (String wire : f.texts("protocols", "validation.protocols")) {
            EndpointFamily protocol = EndpointFamily.forWire(wire);
            if (protocol == null || !Protocols.conversational(protocol)) {
                throw new ValidationException("validation.protocols", "protocols",
                        "protocols are chat_completions, responses or messages; got " + wire);
            }
            protocols.add(protocol);
        }
        return Optional.of(protocols);
    }

    /** Absent → keep; null → the platform's default families; a list → exactly those. */
    private static Optional<Set<EndpointFamily>> families(JsonFields f) {
        if (!f.has("endpoint_families")) {
            return null;
        }
        if (f.node("endpoint_families").isNull()) {
            return Optional.empty();
        }
        List<String> wires = f.texts("endpoint_families", "validation.endpoint_family");
        Set<EndpointFamily> families = EnumSet.noneOf(EndpointFamily.class);
        wires.forEach(w -> families.add(EndpointFamily.fromWire(w)));
        return Optional.of(families);
    }
}
