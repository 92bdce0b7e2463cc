package dev.detour.admin.port;

import java.util.function.Function;

/**
 * Where the admin use cases keep what they change. Everything one {@link #inTransaction} writes
 * commits together or not at all: the change, its audit row (U-6) and the pool revision bump (O-4).
 */
public interface Transactions {
    <T> T inTransaction(Function<Changes, T> work);

    /** Reads outside a transaction, each statement on its own. */
    <T> T read(Function<Changes, T> work);
}
