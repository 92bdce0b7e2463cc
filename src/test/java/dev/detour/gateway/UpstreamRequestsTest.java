package dev.detour.gateway;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.core.account.Account;
import dev.detour.core.account.EndpointFamily;
import dev.detour.gateway.port.ClientCall;
import dev.detour.gateway.port.RequestPeek;
import dev.detour.gateway.port.UpstreamRequest;
import dev.detour.testkit.AccountMother;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The request an attempt sends: a P-10 side-effecting request is marked as never to be sent twice. */
class UpstreamRequestsTest {
    private final Account account = AccountMother.account(1).baseUrl("https://relay.example").build();

    @Test
    void anOrdinaryRequestMayBeSentAgain() {
        UpstreamRequest request = UpstreamRequests.build(call(false, false), account, null, "sk-upstream");
        assertTrue(request.replayable());
        assertEquals("https://relay.example/v1/responses", request.url());
        assertArrayEquals("{}".getBytes(StandardCharsets.UTF_8), request.body());
    }

    @Test
    void aStoredOrBackgroundRequestIsNeverSentTwice() {
        assertFalse(UpstreamRequests.build(call(true, false), account, null, "sk-upstream").replayable());
        assertFalse(UpstreamRequests.build(call(false, true), account, null, "sk-upstream").replayable());
    }

    @Test
    void aConversationRequestIsNeverSentTwice() {
        RequestPeek peek = new RequestPeek(null, -1, -1, false, null, "conv_1", false, false, null);
        assertFalse(UpstreamRequests.build(call(peek), account, null, "sk-upstream").replayable());
    }

    private static ClientCall call(boolean store, boolean background) {
        return call(new RequestPeek(null, -1, -1, false, null, null, store, background, null));
    }

    private static ClientCall call(RequestPeek peek) {
        return new ClientCall("req-1", EndpointFamily.RESPONSES, "POST", "/v1/responses", List.of(),
                "{}".getBytes(StandardCharsets.UTF_8), peek, null, "127.0.0.1", Instant.EPOCH, 0);
    }

    @Test
    void theNeedleIsFoundWhereverAByteByByteScanFindsItAndNowhereElse() {
        byte[] seal = "detour-bridged:".getBytes(StandardCharsets.US_ASCII);
        UpstreamRequests.Needle needle = new UpstreamRequests.Needle(seal);
        byte[] alphabet = "detour-bridged:\"{}, ".getBytes(StandardCharsets.US_ASCII); // near misses are frequent
        Random random = new Random(42);
        int found = 0;
        for (int round = 0; round < 20_000; round++) {
            byte[] haystack = new byte[random.nextInt(60)];
            for (int i = 0; i < haystack.length; i++) {
                haystack[i] = alphabet[random.nextInt(alphabet.length)];
            }
            if (haystack.length >= seal.length && random.nextInt(4) == 0) { // planted: at the start, end or inside
                System.arraycopy(seal, 0, haystack, random.nextInt(haystack.length - seal.length + 1), seal.length);
            }
            boolean scanned = scan(haystack, seal);
            found += scanned ? 1 : 0;
            assertEquals(scanned, needle.in(haystack), new String(haystack, StandardCharsets.US_ASCII));
        }
        assertTrue(found > 1_000, "the rounds planted the needle often: " + found);
        assertTrue(needle.in(seal));
        assertFalse(needle.in("detour-bridged".getBytes(StandardCharsets.US_ASCII)));
        assertFalse(needle.in(new byte[0]));
    }

    private static boolean scan(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return true;
            }
        }
        return false;
    }
}
