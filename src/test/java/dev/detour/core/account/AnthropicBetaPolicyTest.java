package dev.detour.core.account;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.detour.core.ValidationException;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** B-5: what an account's upstream gets of the client's anthropic-beta header, per policy. */
class AnthropicBetaPolicyTest {
    private static final String CLAUDE_CODE = "claude-code-20250219,interleaved-thinking-2025-05-14,"
            + "fine-grained-tool-streaming-2025-05-14";

    @ParameterizedTest(name = "{0} {1}: {2} → {3}")
    @CsvSource(delimiter = '|', nullValues = "DROPPED", value = {
        "pass      |                                           | " + CLAUDE_CODE + " | " + CLAUDE_CODE,
        "strip_all |                                           | " + CLAUDE_CODE + " | DROPPED",
        "strip     | interleaved-thinking-2025-05-14           | " + CLAUDE_CODE
                + " | claude-code-20250219,fine-grained-tool-streaming-2025-05-14",
        "strip     | CLAUDE-CODE-20250219                      | claude-code-20250219, context-1m-2025-08-07 | context-1m-2025-08-07",
        "strip     | claude-code-20250219 context-1m-2025-08-07 | claude-code-20250219,context-1m-2025-08-07 | DROPPED",
        "strip     | unknown-flag                              | ' a , ,b '                                 | 'a,b'",
        "strip     | a                                         | ' , '                                      | DROPPED",
    })
    void thePolicyPassesStripsTheListedFlagsOrDropsTheHeader(String mode, String flags, String sent, String expected) {
        List<String> listed = flags == null ? List.of() : Arrays.asList(flags.split(" "));
        assertEquals(expected, AnthropicBetaPolicy.withDefaults(mode, listed).apply(sent));
    }

    @ParameterizedTest(name = "{0} {1} → {2}")
    @CsvSource(delimiter = '|', value = {
        "drop  | a                | anthropic_beta.mode",
        "strip | ''               | anthropic_beta.flags",
        "strip | a,b              | anthropic_beta.flags",
        "strip | has space        | anthropic_beta.flags",
        "strip | quote\"          | anthropic_beta.flags",
    })
    void anUnknownModeAStripWithoutFlagsOrAFlagThatCannotBeOneAreRefusedWithTheirField(String mode, String flag,
            String field) {
        ValidationException e = assertThrows(ValidationException.class,
                () -> new AnthropicBetaPolicy(mode, flag.isEmpty() ? List.of() : List.of(flag)));
        assertEquals(AnthropicBetaPolicy.ERROR_CODE, e.code());
        assertEquals(field, e.field());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {"pass", "strip_all"})
    void flagsAreTrimmedDeduplicatedAndKeptAcrossModesAndAMissingModeIsPass(String mode) {
        AnthropicBetaPolicy p = AnthropicBetaPolicy.withDefaults(mode, List.of(" a ", "", "a", "b"));
        assertEquals(List.of("a", "b"), p.flags());
        assertEquals(AnthropicBetaPolicy.DEFAULTS, AnthropicBetaPolicy.withDefaults(null, null));
        assertThrows(ValidationException.class, () -> new AnthropicBetaPolicy(AnthropicBetaPolicy.STRIP,
                java.util.Collections.nCopies(AnthropicBetaPolicy.MAX_FLAGS + 1, "a")));
    }
}
