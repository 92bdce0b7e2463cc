package dev.detour.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Jackson's buffers: per platform thread as Jackson does, from a shared pool on virtual threads (N-8 on 21+). */
class ThreadFittingPoolTest {

    @Test
    void onAPlatformThreadEveryParserUsesTheThreadsOwnSetAndNothingIsPooled() {
        ThreadFittingPool pool = new ThreadFittingPool(() -> false);
        BufferRecycler first = pool.acquireAndLinkPooled();
        first.releaseToPool();
        BufferRecycler second = pool.acquireAndLinkPooled();

        assertSame(first, second, "the thread's own set");
        assertFalse(first.isLinkedWithPool());
        assertEquals(0, pool.pooledCount());
    }

    @Test
    void onAVirtualThreadASetComesFromTheSharedPoolAndGoesBackWhenReleased() {
        ThreadFittingPool pool = new ThreadFittingPool(() -> true);
        BufferRecycler first = pool.acquireAndLinkPooled();
        BufferRecycler meanwhile = pool.acquireAndLinkPooled();
        assertNotSame(first, meanwhile, "two open parsers never share a set");
        assertTrue(first.isLinkedWithPool());

        first.releaseToPool();
        meanwhile.releaseToPool();
        assertEquals(2, pool.pooledCount());
        BufferRecycler again = pool.acquireAndLinkPooled();
        assertTrue(again == first || again == meanwhile, "a released set is used again");
        assertEquals(1, pool.pooledCount());
    }

    @Test
    void aSetTakenOnAVirtualThreadGoesBackToTheSharedPoolWhicheverThreadClosesIt() {
        AtomicBoolean virtual = new AtomicBoolean(true);
        ThreadFittingPool pool = new ThreadFittingPool(virtual::get);
        BufferRecycler taken = pool.acquireAndLinkPooled();
        virtual.set(false); // closed on a platform thread

        taken.releaseToPool();

        assertEquals(1, pool.pooledCount());
        assertNotSame(taken, pool.acquireAndLinkPooled(), "a platform thread keeps using its own set");
    }

    @Test
    void aPlatformThreadIsToldApartFromAVirtualOneOnEveryJdk() throws Exception {
        assertFalse(ThreadFittingPool.onVirtualThread(), "the test runs on a platform thread");
        if (Runtime.version().feature() >= 21) { // the build's JDK 17 has none; the same code runs on 25 in service
            java.lang.reflect.Method ofVirtual = Thread.class.getMethod("ofVirtual");
            Object builder = ofVirtual.invoke(null);
            AtomicBoolean seen = new AtomicBoolean();
            Thread t = (Thread) Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class)
                    .invoke(builder, (Runnable) () -> seen.set(ThreadFittingPool.onVirtualThread()));
            t.join();
            assertTrue(seen.get());
        }
    }

    @Test
    void theFactoriesParseAndWriteAsPlainJacksonDoes() throws IOException {
        JsonFactory factory = JsonFactories.streaming();
        try (JsonParser p = factory.createParser("{\"model\":\"m\",\"stream\":true}")) {
            assertEquals(JsonToken.START_OBJECT, p.nextToken());
            assertEquals("model", p.nextFieldName());
            assertEquals("m", p.nextTextValue());
        }
        ObjectMapper mapper = JsonFactories.mapper();
        assertEquals("{\"a\":[1,\"😀\"]}", mapper.writeValueAsString(mapper.readTree("{\"a\":[1,\"😀\"]}")));
    }
}
