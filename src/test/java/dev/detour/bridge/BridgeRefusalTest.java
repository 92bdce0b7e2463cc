package dev.detour.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.detour.core.account.EndpointFamily;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * B-2: a request feature the other protocol cannot carry is refused before dispatch with its stable
 * {@code bridge.unsupported.<feature>} code (docs/api.md lists them), never sent without it.
 */
class BridgeRefusalTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CHAT_HI = "\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]";
    private static final String MESSAGES_HI = "\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]";

    @ParameterizedTest(name = "{0} → {1}: {3}")
    @CsvSource(delimiter = '|', value = {
            // Chat Completions features no other protocol has
            "CHAT_COMPLETIONS|MESSAGES|{\"n\":2,CHAT_HI}|n",
            "CHAT_COMPLETIONS|RESPONSES|{\"logprobs\":true,CHAT_HI}|logprobs",
            "CHAT_COMPLETIONS|MESSAGES|{\"frequency_penalty\":0.5,CHAT_HI}|penalty",
            "CHAT_COMPLETIONS|MESSAGES|{\"presence_penalty\":-1,CHAT_HI}|penalty",
            "CHAT_COMPLETIONS|MESSAGES|{\"logit_bias\":{\"50256\":-100},CHAT_HI}|logit_bias",
            "CHAT_COMPLETIONS|RESPONSES|{\"modalities\":[\"text\",\"audio\"],CHAT_HI}|audio",
            "CHAT_COMPLETIONS|MESSAGES|{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_audio\",\"input_audio\":{\"data\":\"UklG\",\"format\":\"wav\"}}]}]}|audio",
            "CHAT_COMPLETIONS|MESSAGES|{\"prediction\":{\"type\":\"content\",\"content\":\"x\"},CHAT_HI}|prediction",
            "CHAT_COMPLETIONS|RESPONSES|{\"web_search_options\":{},CHAT_HI}|builtin_tool",
            "CHAT_COMPLETIONS|MESSAGES|{\"functions\":[{\"name\":\"f\"}],CHAT_HI}|legacy_functions",
            "CHAT_COMPLETIONS|MESSAGES|{\"tools\":[{\"type\":\"custom\",\"custom\":{\"name\":\"g\"}}],CHAT_HI}|custom_tool",
            "CHAT_COMPLETIONS|MESSAGES|{\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"file\",\"file\":{\"file_id\":\"file-1\"}}]}]}|file",
            "CHAT_COMPLETIONS|MESSAGES|{\"messages\":[{\"role\":\"system\",\"content\":[{\"type\":\"image_url\",\"image_url\":{\"url\":\"https://x.test/a.png\"}}]},{\"role\":\"user\",\"content\":\"hi\"}]}|system_image",
            "CHAT_COMPLETIONS|MESSAGES|{\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\"}}],\"tool_choice\":{\"type\":\"allowed_tools\"},CHAT_HI}|tool_choice",
            // Messages features no other protocol has
            "MESSAGES|CHAT_COMPLETIONS|{\"tools\":[{\"type\":\"web_search_20250305\",\"name\":\"web_search\"}],MESSAGES_HI}|builtin_tool",
            "MESSAGES|RESPONSES|{\"tools\":[{\"type\":\"bash_20250124\",\"name\":\"bash\"}],MESSAGES_HI}|builtin_tool",
            "MESSAGES|RESPONSES|{\"mcp_servers\":[{\"type\":\"url\",\"url\":\"https://mcp.test\",\"name\":\"m\"}],MESSAGES_HI}|mcp_servers",
            "MESSAGES|CHAT_COMPLETIONS|{\"container\":\"container_1\",MESSAGES_HI}|container",
            "MESSAGES|CHAT_COMPLETIONS|{\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"document\",\"source\":{\"type\":\"base64\",\"media_type\":\"application/pdf\",\"data\":\"JVBE\"}}]}]}|file",
            "MESSAGES|CHAT_COMPLETIONS|{\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image\",\"source\":{\"type\":\"file\",\"file_id\":\"file_1\"}}]}]}|file",
            "MESSAGES|RESPONSES|{\"max_tokens\":5,\"messages\":[{\"role\":\"assistant\",\"content\":[{\"type\":\"server_tool_use\",\"id\":\"srvtoolu_1\",\"name\":\"web_search\",\"input\":{}}]}]}|builtin_tool",
            "MESSAGES|RESPONSES|{\"max_tokens\":5,\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"search_result\",\"source\":\"s\"}]}]}|content_part",
            // Responses features no other protocol has: state kept upstream, built-in tools
            "RESPONSES|CHAT_COMPLETIONS|{\"previous_response_id\":\"resp_1\",\"input\":\"hi\"}|previous_response_id",
            "RESPONSES|MESSAGES|{\"input\":[{\"type\":\"item_reference\",\"id\":\"msg_1\"}]}|previous_response_id",
            "RESPONSES|MESSAGES|{\"conversation\":\"conv_1\",\"input\":\"hi\"}|conversation",
            "RESPONSES|CHAT_COMPLETIONS|{\"store\":true,\"input\":\"hi\"}|store",
            "RESPONSES|MESSAGES|{\"background\":true,\"input\":\"hi\"}|background",
            "RESPONSES|MESSAGES|{\"prompt\":{\"id\":\"pmpt_1\"},\"input\":\"hi\"}|prompt_template",
            "RESPONSES|CHAT_COMPLETIONS|{\"top_logprobs\":2,\"input\":\"hi\"}|logprobs",
            "RESPONSES|MESSAGES|{\"max_tool_calls\":3,\"input\":\"hi\"}|max_tool_calls",
            "RESPONSES|MESSAGES|{\"truncation\":\"auto\",\"input\":\"hi\"}|truncation",
            "RESPONSES|CHAT_COMPLETIONS|{\"tools\":[{\"type\":\"web_search\"}],\"input\":\"hi\"}|builtin_tool",
            "RESPONSES|MESSAGES|{\"tools\":[{\"type\":\"file_search\",\"vector_store_ids\":[\"vs_1\"]}],\"input\":\"hi\"}|builtin_tool",
            "RESPONSES|MESSAGES|{\"input\":[{\"type\":\"local_shell_call\",\"call_id\":\"c\"}]}|builtin_tool",
            "RESPONSES|CHAT_COMPLETIONS|{\"tools\":[{\"type\":\"namespace\",\"name\":\"n\",\"tools\":[{\"type\":\"web_search\"}]}],\"input\":\"hi\"}|builtin_tool",
            "RESPONSES|MESSAGES|{\"tools\":[{\"type\":\"custom\",\"name\":\"apply_patch\"}],\"tool_choice\":{\"type\":\"mcp\",\"server_label\":\"s\"},\"input\":\"hi\"}|tool_choice",
            "RESPONSES|MESSAGES|{\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_file\",\"file_id\":\"file-1\"}]}]}|file",
            "RESPONSES|MESSAGES|{\"input\":[{\"role\":\"user\",\"content\":[{\"type\":\"input_image\",\"file_id\":\"file-1\"}]}]}|file",
            "RESPONSES|CHAT_COMPLETIONS|{\"tools\":[{\"type\":\"function\",\"name\":\"f\"}],\"tool_choice\":{\"type\":\"file_search\"},\"input\":\"hi\"}|tool_choice",
            // features the upstream's protocol cannot carry
            "MESSAGES|CHAT_COMPLETIONS|{\"top_k\":40,MESSAGES_HI}|top_k",
            "MESSAGES|RESPONSES|{\"top_k\":40,MESSAGES_HI}|top_k",
            "CHAT_COMPLETIONS|RESPONSES|{\"stop\":[\"END\"],CHAT_HI}|stop",
            "MESSAGES|RESPONSES|{\"stop_sequences\":[\"END\"],MESSAGES_HI}|stop",
            "CHAT_COMPLETIONS|MESSAGES|{\"response_format\":{\"type\":\"json_object\"},CHAT_HI}|response_format",
            "RESPONSES|MESSAGES|{\"text\":{\"format\":{\"type\":\"json_schema\",\"name\":\"n\",\"schema\":{}}},\"input\":\"hi\"}|response_format",
            "MESSAGES|CHAT_COMPLETIONS|{\"max_tokens\":5,\"messages\":[{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t1\",\"name\":\"f\",\"input\":{}}]},{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"t1\",\"content\":[{\"type\":\"image\",\"source\":{\"type\":\"url\",\"url\":\"https://x.test/a.png\"}}]}]}]}|tool_result_image",
            "CHAT_COMPLETIONS|MESSAGES|{\"messages\":[{\"role\":\"assistant\",\"tool_calls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"not json\"}}]}]}|tool_arguments"})
    void aFeatureThatCannotBeBridgedIsRefusedWithItsCode(EndpointFamily client, EndpointFamily upstream, String body,
            String feature) throws Exception {
        String json = body.replace("CHAT_HI", CHAT_HI).replace("MESSAGES_HI", MESSAGES_HI);
        BridgeRefusal refusal = assertThrows(BridgeRefusal.class,
                () -> Bridge.request(client, upstream, JSON.readTree(json), "m"));
        assertEquals("bridge.unsupported." + feature, refusal.code());
        assertEquals(400, BridgeRefusal.STATUS);
        assertTrue(refusal.getMessage().contains("cannot"), refusal.getMessage());
    }

    @ParameterizedTest(name = "{2}")
    @CsvSource(delimiter = '|', value = {
            "CHAT_COMPLETIONS|MESSAGES|{\"n\":1,\"logprobs\":false,\"frequency_penalty\":0,\"presence_penalty\":0,\"logit_bias\":{},CHAT_HI}",
            "RESPONSES|CHAT_COMPLETIONS|{\"store\":false,\"background\":false,\"truncation\":\"disabled\",\"input\":\"hi\"}",
            // B-6: Responses custom tools and their calls go up as functions (ResponsesToolsTest), no longer refused
            "RESPONSES|CHAT_COMPLETIONS|{\"tools\":[{\"type\":\"custom\",\"name\":\"apply_patch\"}],\"input\":\"hi\"}",
            "RESPONSES|MESSAGES|{\"input\":[{\"type\":\"custom_tool_call\",\"call_id\":\"c\",\"name\":\"apply_patch\",\"input\":\"x\"}]}"})
    void aFeatureLeftAtItsDefaultIsNoReasonToRefuse(EndpointFamily client, EndpointFamily upstream, String body)
            throws Exception {
        assertEquals("m", Bridge.request(client, upstream, JSON.readTree(body.replace("CHAT_HI", CHAT_HI)), "m")
                .path("model").asText());
    }
}
