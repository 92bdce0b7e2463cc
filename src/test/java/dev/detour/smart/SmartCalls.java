package dev.detour.smart;

import dev.detour.testkit.Gateway;
import java.net.http.HttpResponse;

/** Public face of {@link SmartFixture} for tests in other packages. */
public final class SmartCalls {
    private final SmartFixture fx;

    public SmartCalls(Gateway gw) {
        this.fx = new SmartFixture(gw);
    }

    public HttpResponse<String> chat(String key, String model) {
        return fx.chat(key, model);
    }

    public HttpResponse<String> post(String key, String path, String body) {
        return fx.post(key, path, body);
    }
}
