package dev.detour.config;

/** A start-up configuration error; its message is the one line an operator sees, naming the variable. */
public final class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }
}
