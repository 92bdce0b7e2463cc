package dev.detour.admin.port;

import java.time.Instant;

/** Request-log filters (U-5); null = any. The time range is [from, to). */
public record RequestFilter(Long keyId, Long accountId, Long groupId, String model, String outcome, Integer status,
        Instant from, Instant to) {
    public static final RequestFilter NONE = new RequestFilter(null, null, null, null, null, null, null, null);
}
