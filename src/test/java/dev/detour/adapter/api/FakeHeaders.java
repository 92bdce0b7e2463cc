package dev.detour.adapter.api;

import jakarta.servlet.http.HttpServletRequest;
import java.lang.reflect.Proxy;

/** A request that only has one header: enough for authenticators, which read nothing else. */
record FakeHeaders(String name, String value) {
    HttpServletRequest request() {
        return (HttpServletRequest) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {HttpServletRequest.class}, (proxy, method, args) -> {
                    if (method.getName().equals("getHeader")) {
                        return name.equalsIgnoreCase((String) args[0]) ? value : null;
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}
