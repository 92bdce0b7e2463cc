package dev.detour.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The bodies the demo relays answer with: OpenAI-compatible chat completions (buffered and SSE)
 * and the failure envelopes the failure engine must recognise (F-1, F-5, F-8).
 */
final class DemoReplies {
    /** The seed's budget-pool envelope, word for word (F-8; F-5 matches "quota has been exhausted"). */
    static final String BUDGET_POOL_BODY = "{\"error\":{\"message\":\"Budget pool quota has been exhausted. Please ask "
            + "an administrator to increase the limit or select another budget pool.\",\"type\":"
            + "\"bad_response_status_code\",\"param\":\"\",\"code\":\"bad_response_status_code\"}}";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int PROMPT_TOKENS = 12;

    private DemoReplies() {
    }

    static DemoReply answer(DemoBehaviour behaviour, String model, boolean stream, long sequence) {
        return switch (behaviour) {
            case HEALTHY -> completion(behaviour, model, stream, sequence);
            case SLOW -> completion(behaviour, model, stream, sequence).after(DemoBehaviour.SLOW_DELAY);
            case RATE_LIMITED -> DemoBehaviour.RATE_LIMITED_MODEL.equals(model) ? rateLimited(model)
                    : completion(behaviour, model, stream, sequence);
            case FLAKY -> error(502, "bad gateway: the relay's upstream channel did not answer", "upstream_error",
                    "bad_gateway");
            // the relay reports its own upstream's refusal as bad_response_status_code
            case BUDGET_POOL -> DemoReply.json(500, Map.of(), BUDGET_POOL_BODY);
        };
    }

    static DemoReply unauthorized() {
        return error(401, "Incorrect API key provided", "invalid_request_error", "invalid_api_key");
    }

    static DemoReply notFound(String what) {
        return error(404, "the demo upstream does not serve " + what, "invalid_request_error", "not_found");
    }

    static DemoReply badRequest(String message) {
        return error(400, message, "invalid_request_error", "invalid_request");
    }

    private static DemoReply rateLimited(String model) {
        int wait = DemoBehaviour.RETRY_AFTER_SECONDS;
        DemoReply reply = error(429, "Rate limit reached for " + model + " on requests per min (RPM): Limit 3, Used 3. "
                + "Please try again in " + wait + "s.", "requests", "rate_limit_exceeded");
        return new DemoReply(429, Map.of("Retry-After", Integer.toString(wait)), false, reply.parts(),
                reply.delay());
    }

    private static DemoReply error(int status, String message, String type, String code) {
        ObjectNode body = JSON.createObjectNode();
        ObjectNode error = body.putObject("error");
        error.put("message", message);
        error.put("type", type);
        error.putNull("param");
        error.put("code", code);
        return DemoReply.json(status, Map.of(), body.toString());
    }

    private static DemoReply completion(DemoBehaviour behaviour, String model, boolean stream, long sequence) {
        String id = "chatcmpl-demo-" + sequence;
        List<String> words = List.of("Hello", " from", " the", " demo", " relay", " '" + behaviour.path() + "'.");
        if (!stream) {
            ObjectNode body = base(id, "chat.completion", model);
            ObjectNode choice = body.putArray("choices").addObject();
            choice.put("index", 0);
            choice.putObject("message").put("role", "assistant").put("content", String.join("", words));
            choice.put("finish_reason", "stop");
            body.set("usage", usage(words.size()));
            return DemoReply.json(200, Map.of(), body.toString());
        }
        List<String> frames = new ArrayList<>();
        for (String word : words) {
            frames.add(frame(chunk(id, model, word, null)));
        }
        ObjectNode last = chunk(id, model, null, "stop");
        last.set("usage", usage(words.size()));
        frames.add(frame(last));
        frames.add("data: [DONE]\n\n");
        return new DemoReply(200, Map.of(), true, frames, java.time.Duration.ZERO);
    }

    private static ObjectNode chunk(String id, String model, String content, String finishReason) {
        ObjectNode body = base(id, "chat.completion.chunk", model);
        ObjectNode choice = body.putArray("choices").addObject();
        choice.put("index", 0);
        ObjectNode delta = choice.putObject("delta");
        if (content != null) {
            delta.put("content", content);
        }
        if (finishReason == null) {
            choice.putNull("finish_reason");
        } else {
            choice.put("finish_reason", finishReason);
        }
        return body;
    }

    private static ObjectNode base(String id, String object, String model) {
        ObjectNode body = JSON.createObjectNode();
        body.put("id", id);
        body.put("object", object);
        body.put("created", System.currentTimeMillis() / 1000);
        body.put("model", model);
        return body;
    }

    private static ObjectNode usage(int completionTokens) {
        ObjectNode usage = JSON.createObjectNode();
        usage.put("prompt_tokens", PROMPT_TOKENS);
        usage.put("completion_tokens", completionTokens);
        usage.put("total_tokens", PROMPT_TOKENS + completionTokens);
        return usage;
    }

    private static String frame(ObjectNode data) {
        return "data: " + data + "\n\n";
    }
}
