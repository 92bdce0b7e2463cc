package dev.detour.core.selection;

import dev.detour.core.account.ModelState;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * S-1 step 5: model state is looked up by (account, model key), never by model alone — two
 * accounts may map the same requested model to different upstream names.
 */
public record ModelStateKey(long accountId, String modelKey) {

    public static ModelStateKey of(ModelState state) {
        return new ModelStateKey(state.accountId(), state.modelKey());
    }

    public static Map<ModelStateKey, ModelState> index(Collection<ModelState> states) {
        Map<ModelStateKey, ModelState> map = new HashMap<>();
        for (ModelState s : states) {
            map.put(of(s), s);
        }
        return map;
    }
}
