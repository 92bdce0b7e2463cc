package dev.detour.adapter.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import org.junit.jupiter.api.Test;

class UpstreamUrisTest {
    private final UpstreamUris uris = new UpstreamUris();

    @Test
    void aUrlIsParsedOnceAndAsUriCreateParsesIt() {
        String url = "https://relay.example:8443/openai/v1/chat/completions?api-version=2024-10-21";

        UpstreamUris.Target first = uris.of(url);

        assertEquals(URI.create(url), first.uri());
        assertEquals(new UpstreamUris.Route(true, "relay.example", 8443), first.route());
        assertEquals("/openai/v1/chat/completions?api-version=2024-10-21", first.requestTarget());
        assertEquals("relay.example:8443", first.host());
        assertSame(first, uris.of(new String(url))); // an equal string built for the next request
        assertEquals(1, uris.size());
    }

    @Test
    void aUrlThatIsNoneIsRefusedEveryTimeAndNeverKept() {
        assertThrows(IllegalArgumentException.class, () -> uris.of("http://bad host/v1"));
        assertThrows(IllegalArgumentException.class, () -> uris.of("http://bad host/v1"));
        assertThrows(IllegalArgumentException.class, () -> uris.of("ftp://relay.example/v1"));
        assertThrows(IllegalArgumentException.class, () -> uris.of("/v1/chat/completions"));
        assertEquals(0, uris.size());
    }

    @Test
    void theDefaultPortIsTheSchemesAndTheHostHeaderNamesOnlyAPortTheUrlNames() {
        UpstreamUris.Target plain = uris.of("HTTP://relay.example");
        assertEquals(new UpstreamUris.Route(false, "relay.example", 80), plain.route());
        assertEquals("/", plain.requestTarget());
        assertEquals("relay.example", plain.host());
        assertEquals(new UpstreamUris.Route(true, "[::1]", 443), uris.of("https://[::1]/v1").route());
    }

    @Test
    void manyDistinctUrlsStartOverInsteadOfGrowing() {
        for (int i = 0; i < UpstreamUris.MAX * 3; i++) {
            String url = "http://127.0.0.1:9/v1/models/m-" + i;
            assertEquals(URI.create(url), uris.of(url).uri());
            assertTrue(uris.size() <= UpstreamUris.MAX);
        }
    }
}
