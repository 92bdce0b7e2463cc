package dev.detour.admin;

import com.fasterxml.jackson.databind.ObjectMapper;

/** The JSON admin itself reads and writes: a key's stored policy, the small audit notes of model and recovery actions. */
final class AdminJson {
    static final ObjectMapper JSON = new ObjectMapper();

    private AdminJson() {
    }
}
