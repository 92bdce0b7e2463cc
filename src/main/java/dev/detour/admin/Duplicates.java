package dev.detour.admin;

import dev.detour.admin.port.NameTakenException;
import java.util.function.Supplier;

/** Turns a unique-key violation raced past our pre-check into a 409. */
final class Duplicates {
    private Duplicates() {
    }

    static <T> T guard(Supplier<T> work, String what) {
        try {
            return work.get();
        } catch (NameTakenException e) {
            throw duplicateName(what);
        }
    }

    static ConflictException duplicateName(String what) {
        return new ConflictException(ConflictException.DUPLICATE_NAME, "name", what + " with this name already exists");
    }
}
