package dev.detour.server;

import java.util.function.BiPredicate;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpScheme;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;

/**
 * O-3: marks a request as https when a trusted proxy says so (X-Forwarded-Proto), so session
 * cookies get Secure. Unlike Jetty's ForwardedRequestCustomizer it believes nobody by default:
 * the predicate (peer IP, header value) decides.
 */
public final class ForwardedProtoCustomizer implements HttpConfiguration.Customizer {
    private final BiPredicate<String, String> trustedHttps;

    public ForwardedProtoCustomizer(BiPredicate<String, String> trustedHttps) {
        this.trustedHttps = trustedHttps;
    }

    @Override
    public Request customize(Request request, HttpFields.Mutable responseHeaders) {
        String proto = request.getHeaders().get("X-Forwarded-Proto");
        if (proto == null || request.isSecure() || !trustedHttps.test(Request.getRemoteAddr(request), proto)) {
            return request;
        }
        HttpURI https = HttpURI.build(request.getHttpURI()).scheme(HttpScheme.HTTPS).asImmutable(); // authority unchanged: it must match Host
        return new Request.Wrapper(request) {
            @Override
            public boolean isSecure() {
                return true;
            }

            @Override
            public HttpURI getHttpURI() {
                return https;
            }
        };
    }
}
