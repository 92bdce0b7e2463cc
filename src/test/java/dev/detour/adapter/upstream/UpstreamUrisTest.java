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

        URI first = uris.of(url);

        assertEquals(URI.create(url), first);
        assertSame(first, uris.of(new String(url))); // an equal string built for the next request
        assertEquals(1, uris.size());
    }

    @Test
    void aUrlThatIsNoneIsRefusedEveryTimeAndNeverKept() {
        assertThrows(IllegalArgumentException.class, () -> uris.of("http://bad host/v1"));
        assertThrows(IllegalArgumentException.class, () -> uris.of("http://bad host/v1"));
        assertEquals(0, uris.size());
    }

    @Test
    void manyDistinctUrlsStartOverInsteadOfGrowing() {
        for (int i = 0; i < UpstreamUris.MAX * 3; i++) {
            String url = "http://127.0.0.1:9/v1/models/m-" + i;
            assertEquals(URI.create(url), uris.of(url));
            assertTrue(uris.size() <= UpstreamUris.MAX);
        }
    }
}
