package dev.detour.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * B-6: the names a Responses client's tools go upstream under, and the way back. Responses groups tools in
 * namespaces ({@code {"type":"namespace","name":"functions","tools":[…]}}, Codex declares all its tools so)
 * and has custom (free-form) tools whose calls carry a text instead of JSON arguments; Chat and Messages
 * know only flat functions named {@code [a-zA-Z0-9_-]{1,64}}. A namespaced tool goes up under its own name
 * when no other declared tool has that name — Codex's instructions call its tools by their bare names — and
 * as {@code <namespace>__<name>} when two namespaces share it; a name the upstream would refuse is cut and
 * cleaned, a clash gets a number. The table turns an upstream call back into the client's own: its
 * namespace and name, and for a custom tool a {@code custom_tool_call} with the text ({@link #inputOf}).
 * Chat and Messages clients name their tools as their upstreams do: {@link #NONE}, every name unchanged.
 */
public final class ToolNames {
    public static final ToolNames NONE = new ToolNames(List.of());
    private static final int MAX_LENGTH = 64;

    /** A tool as the client declared it; {@code namespace} is null at the top level. */
    record Tool(String namespace, String name, boolean custom) {
    }

    private final Map<String, Tool> byUpstream = new HashMap<>();
    private final Map<Tool, String> upstreamOf = new HashMap<>();

    /** The names of {@code declared}, in the client's order (a clash is numbered in that order). */
    ToolNames(List<Tool> declared) {
        Map<String, Integer> bareNames = new HashMap<>();
        declared.forEach(t -> bareNames.merge(t.name(), 1, Integer::sum));
        for (Tool tool : declared) {
            boolean shared = tool.namespace() != null && bareNames.get(tool.name()) > 1;
            String wanted = clean(shared ? tool.namespace() + "__" + tool.name() : tool.name());
            String name = wanted;
            for (int n = 2; byUpstream.containsKey(name); n++) {
                String suffix = "_" + n;
                name = wanted.substring(0, Math.min(wanted.length(), MAX_LENGTH - suffix.length())) + suffix;
            }
            byUpstream.put(name, tool);
            upstreamOf.put(key(tool), name);
        }
    }

    /**
     * The upstream's name for the client's tool {@code name} in {@code namespace} (null: top level). A tool
     * the request does not declare (a call in the history of an earlier turn) is named as it would have been.
     */
    String upstream(String namespace, String name) {
        String declared = upstreamOf.get(new Tool(namespace, name, false));
        if (declared != null) {
            return declared;
        }
        String bare = clean(name == null ? "" : name);
        return namespace == null || !byUpstream.containsKey(bare) ? bare : clean(namespace + "__" + name);
    }

    /** The client's tool an upstream call of {@code upstreamName} is for; null when none: the call keeps its name. */
    Tool client(String upstreamName) {
        return byUpstream.get(upstreamName);
    }

    /** A custom tool's call as function arguments: its text in the one string parameter {@code input}. */
    static String argumentsOf(String input) {
        return Json.object().put("input", input == null ? "" : input).toString();
    }

    /**
     * The text of a custom tool's call from the function arguments the upstream wrote; arguments that are not
     * the object the schema asked for are the text itself (a model that wrote the text straight out).
     */
    static String inputOf(String arguments) {
        JsonNode parsed = Json.parse(arguments);
        JsonNode input = parsed == null ? null : parsed.get("input");
        return input != null && input.isTextual() ? input.asText() : arguments == null ? "" : arguments;
    }

    /**
     * The parameters of the function a custom tool goes up as: one string, the free-form input. Its format
     * (a Lark or regex grammar) only OpenAI can enforce, so the upstream model is told it in the description.
     */
    static JsonNode customSchema(JsonNode format) {
        String description = "The tool's free-form input as raw text.";
        if ("grammar".equals(Json.text(format, "type")) && Json.text(format, "definition") != null) {
            String syntax = Json.text(format, "syntax") == null ? "" : Json.text(format, "syntax") + " ";
            description += " It must match this " + syntax + "grammar:\n" + Json.text(format, "definition");
        }
        var schema = Json.object().put("type", "object");
        schema.putObject("properties").putObject("input").put("type", "string").put("description", description);
        schema.putArray("required").add("input");
        schema.put("additionalProperties", false);
        return schema;
    }

    private static Tool key(Tool tool) {
        return new Tool(tool.namespace(), tool.name(), false);
    }

    /** Chat's and Messages' rule for a tool name: [a-zA-Z0-9_-], 1 to 64 characters. */
    private static String clean(String name) {
        String cleaned = name.replaceAll("[^a-zA-Z0-9_-]", "_");
        cleaned = cleaned.isEmpty() ? "_" : cleaned;
        return cleaned.length() > MAX_LENGTH ? cleaned.substring(0, MAX_LENGTH) : cleaned;
    }
}
