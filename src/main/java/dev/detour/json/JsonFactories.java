package dev.detour.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * Jackson factories for code that runs on request threads (virtual threads on Java 21+): their buffers are recycled
 * by {@link ThreadFittingPool}, not allocated anew for every request (docs/performance.md, session 23).
 */
public final class JsonFactories {
    private JsonFactories() {
    }

    /** A streaming factory (parsers and generators without data binding). */
    public static JsonFactory streaming() {
        return JsonFactory.builder().recyclerPool(new ThreadFittingPool()).build();
    }

    /** A mapper builder on such a factory (each mapper its own factory, as Jackson asks). */
    public static JsonMapper.Builder mapperBuilder() {
        return JsonMapper.builder(streaming());
    }

    /** A plain object mapper on such a factory. */
    public static ObjectMapper mapper() {
        return mapperBuilder().build();
    }
}
