package dev.detour.adapter.api;

/** A status and a JSON-serialisable body (null = no body). */
record ApiResponse(int status, Object body) {
    static ApiResponse ok(Object body) {
        return new ApiResponse(200, body);
    }

    static ApiResponse created(Object body) {
        return new ApiResponse(201, body);
    }

    static ApiResponse noContent() {
        return new ApiResponse(204, null);
    }
}
