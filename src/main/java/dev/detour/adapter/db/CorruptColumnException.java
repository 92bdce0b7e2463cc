package dev.detour.adapter.db;

/**
 * D-4: a stored column Detour cannot decode (not JSON, the wrong shape, an unknown name, a value
 * out of range). The message says why in words an operator can act on, and never holds a secret.
 */
public final class CorruptColumnException extends RuntimeException {
    public CorruptColumnException(String reason) {
        super(reason);
    }
}
