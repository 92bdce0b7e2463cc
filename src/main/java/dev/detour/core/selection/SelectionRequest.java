package dev.detour.core.selection;

import dev.detour.core.account.EndpointFamily;
import dev.detour.core.keys.KeyPolicy;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What selection is asked: the client endpoint family, the requested (client-facing) model —
 * null when the request names none, which makes it account-scoped (no model filter, no model
 * state) — the key's policy, the groups by id (a group missing here counts as 1.0x, not halted),
 * the S-10 block rules in force (expired ones are ignored), the account this key + session is
 * bound to (S-6; null = none), the site's selection settings and the live ranking inputs.
 */
public record SelectionRequest(
        EndpointFamily family,
        String requestedModel,
        KeyPolicy keyPolicy,
        Map<Long, GroupView> groups,
        List<BlockRule> blockRules,
        Long stickyAccountId,
        SelectionSettings settings,
        RankingInputs inputs) {

    public SelectionRequest {
        Objects.requireNonNull(family, "family");
        keyPolicy = keyPolicy == null ? KeyPolicy.UNRESTRICTED : keyPolicy;
        groups = groups == null ? Map.of() : Map.copyOf(groups);
        blockRules = blockRules == null ? List.of() : List.copyOf(blockRules);
        settings = settings == null ? SelectionSettings.DEFAULTS : settings;
        inputs = inputs == null ? RankingInputs.NONE : inputs;
    }

    /** The original four fields: no blocks, no sticky binding, default settings, no ranking inputs. */
    public SelectionRequest(EndpointFamily family, String requestedModel, KeyPolicy keyPolicy,
            Map<Long, GroupView> groups) {
        this(family, requestedModel, keyPolicy, groups, List.of(), null, SelectionSettings.DEFAULTS,
                RankingInputs.NONE);
    }

    public static SelectionRequest of(EndpointFamily family, String requestedModel) {
        return new SelectionRequest(family, requestedModel, KeyPolicy.UNRESTRICTED, Map.of());
    }

    public SelectionRequest withPolicy(KeyPolicy policy) {
        return new SelectionRequest(family, requestedModel, policy, groups, blockRules, stickyAccountId, settings,
                inputs);
    }

    public SelectionRequest withGroups(Map<Long, GroupView> newGroups) {
        return new SelectionRequest(family, requestedModel, keyPolicy, newGroups, blockRules, stickyAccountId,
                settings, inputs);
    }

    public SelectionRequest withBlockRules(List<BlockRule> rules) {
        return new SelectionRequest(family, requestedModel, keyPolicy, groups, rules, stickyAccountId, settings,
                inputs);
    }

    public SelectionRequest withStickyAccount(Long accountId) {
        return new SelectionRequest(family, requestedModel, keyPolicy, groups, blockRules, accountId, settings,
                inputs);
    }

    public SelectionRequest withSettings(SelectionSettings newSettings) {
        return new SelectionRequest(family, requestedModel, keyPolicy, groups, blockRules, stickyAccountId,
                newSettings, inputs);
    }

    public SelectionRequest withInputs(RankingInputs newInputs) {
        return new SelectionRequest(family, requestedModel, keyPolicy, groups, blockRules, stickyAccountId, settings,
                newInputs);
    }

    public GroupView group(long groupId) {
        GroupView view = groups.get(groupId);
        return view != null ? view : GroupView.plain(groupId);
    }

    /** The key's effective ratio ceiling after site default and absolute maximum (0 = none); E-1 shows it. */
    public long ratioCeilingPpm() {
        return settings.ratioCeilingPpm(keyPolicy.maxRatioPpm());
    }

    /** The block rules still in force at {@code now} (most sites have none: no stream per request then). */
    public List<BlockRule> activeBlockRules(Instant now) {
        if (blockRules.isEmpty()) {
            return blockRules;
        }
        return blockRules.stream().filter(rule -> rule.activeAt(now)).toList();
    }
}
