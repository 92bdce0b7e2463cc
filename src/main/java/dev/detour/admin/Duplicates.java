package dev.detour.admin;

import java.sql.SQLException;
import java.util.function.Supplier;

/** Turns a unique-key violation (MariaDB 1062) raced past our pre-check into a 409. */
final class Duplicates {
    private Duplicates() {
    }

    static <T> T guard(Supplier<T> work, String what) {
        try {
            return work.get();
        } catch (RuntimeException e) {
            if (isDuplicateKey(e)) {
                throw duplicateName(what);
            }
            throw e;
        }
    }

    static ConflictException duplicateName(String what) {
        return new ConflictException(ConflictException.DUPLICATE_NAME, "name", what + " with this name already exists");
    }

    private static boolean isDuplicateKey(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && sql.getErrorCode() == 1062) {
                return true;
            }
        }
        return false;
    }
}
