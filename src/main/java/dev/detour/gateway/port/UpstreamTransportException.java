package dev.detour.gateway.port;

import dev.detour.core.failure.TransportError;
import dev.detour.core.failure.TransportErrorType;
import java.io.IOException;

/** No (complete) upstream answer: the transport fact travels in {@link #error()}. */
public class UpstreamTransportException extends IOException {
    private final TransportError error;

    public UpstreamTransportException(TransportError error) {
        super(error.message());
        this.error = error;
    }

    public UpstreamTransportException(TransportError error, Throwable cause) {
        super(error.message(), cause);
        this.error = error;
    }

    public TransportError error() {
        return error;
    }

    public TransportErrorType type() {
        return error.type();
    }
}
