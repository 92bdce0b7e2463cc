package dev.detour.core.selection;

import dev.detour.core.account.EndpointFamily;
import dev.detour.core.keys.KeyPolicy;
import java.util.Map;
import java.util.Objects;

/**
 * What selection is asked: the client endpoint family, the requested (client-facing) model —
 * null when the request names none, which makes it account-scoped (no model filter, no model
 * state) — the key's policy, and the groups by id (a group missing here counts as 1.0x, not halted).
 */
public record SelectionRequest(
        EndpointFamily family,
        String requestedModel,
        KeyPolicy keyPolicy,
        Map<Long, GroupView> groups) {

    public SelectionRequest {
        Objects.requireNonNull(family, "family");
        keyPolicy = keyPolicy == null ? KeyPolicy.UNRESTRICTED : keyPolicy;
        groups = groups == null ? Map.of() : Map.copyOf(groups);
    }

    public static SelectionRequest of(EndpointFamily family, String requestedModel) {
        return new SelectionRequest(family, requestedModel, KeyPolicy.UNRESTRICTED, Map.of());
    }

    public SelectionRequest withPolicy(KeyPolicy policy) {
        return new SelectionRequest(family, requestedModel, policy, groups);
    }

    public SelectionRequest withGroups(Map<Long, GroupView> newGroups) {
        return new SelectionRequest(family, requestedModel, keyPolicy, newGroups);
    }

    public GroupView group(long groupId) {
        GroupView view = groups.get(groupId);
        return view != null ? view : GroupView.plain(groupId);
    }
}
