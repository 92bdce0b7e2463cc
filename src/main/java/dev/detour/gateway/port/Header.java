package dev.detour.gateway.port;

/** One HTTP header line, name as sent/received (compare case-insensitively). */
public record Header(String name, String value) {
}
