package dev.detour.adapter.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.detour.admin.GroupPatch;

/** JSON body → {@link GroupPatch}: {@code name, ratio_ppm, color, halt_policy}. */
final class GroupJson {
    private GroupJson() {
    }

    static GroupPatch patch(ObjectNode body) {
        JsonFields f = new JsonFields(body, "");
        return new GroupPatch(f.text("name", "validation.name"), f.longValue("ratio_ppm", "validation.ratio_ppm"),
                f.text("color", "validation.color"), f.text("halt_policy", "validation.halt_policy"));
    }
}
