package dev.detour.core.failure;

/** F-2: which step of the chain failed; the wire label is stored as last_failure_kind. */
public enum FailureKind {
    REFRESH("refresh"),
    REQUEST_BUILD("request_build"),
    TRANSPORT("transport"),
    RESPONSE_TRANSFORM("response_transform"),
    UPSTREAM_STATUS("upstream_status"),
    SEMANTIC_RESPONSE_TRANSIENT("semantic_response_transient"),
    SEMANTIC_RESPONSE_FAILED("semantic_response_failed"),
    MODEL_TEST_STATUS("model_test_status"),
    MODEL_TEST("model_test");

    private final String wire;

    FailureKind(String wire) {
        this.wire = wire;
    }

    public String wire() {
        return wire;
    }

    /** The kind for a stored label, or null for an unknown one (F-3 treats unknown as account scope). */
    public static FailureKind fromWire(String value) {
        for (FailureKind k : values()) {
            if (k.wire.equals(value)) {
                return k;
            }
        }
        return null;
    }
}
