package dev.detour.admin;

import com.fasterxml.jackson.databind.JsonNode;
import dev.detour.core.ValidationException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.function.Function;

/**
 * A change to a Detour key as a request sends it (SPEC §9 key contract): per field absent, null or a
 * value, read once from the request JSON by {@link #parse}. A field sent with a wrong type or out of
 * range holds its refusal instead of a value; the refusal is raised when {@link KeyAdmin} reaches the
 * field, so the check order stays the one of the key contract: the policy (merged over the stored one,
 * groups resolved inside the transaction), then name, owner_label, enabled, expires_at.
 */
public record KeyPatch(Field<String> name, Field<String> ownerLabel, Field<Boolean> enabled, Field<Instant> expiresAt,
        PolicyPatch policy) {

    /** One field of a patch: absent (not sent), sent as null, a value, or the refusal of what was sent. */
    public static final class Field<T> {
        private final JsonNode sent;
        private final T value;
        private final ValidationException refusal;

        private Field(JsonNode sent, T value, ValidationException refusal) {
            this.sent = sent;
            this.value = value;
            this.refusal = refusal;
        }

        /** Reads {@code field} of {@code body} with {@code parse}; a refusal is kept, not thrown. */
        static <T> Field<T> read(JsonNode body, String field, Function<JsonNode, T> parse) {
            JsonNode n = body.get(field);
            if (n == null) {
                return new Field<>(null, null, null);
            }
            try {
                return new Field<>(n, parse.apply(n), null);
            } catch (ValidationException e) {
                return new Field<>(n, null, e);
            }
        }

        public boolean absent() {
            return sent == null;
        }

        /** The JSON as sent (null when absent), for storing it as it came. */
        JsonNode sent() {
            return sent;
        }

        /** The value sent (null when sent as null), {@code current} when absent; the refusal when it was invalid. */
        public T orElse(T current) {
            if (refusal != null) {
                throw refusal;
            }
            return sent == null ? current : value;
        }

        /** This field when sent, else {@code base}: a patch over what is stored. */
        Field<T> over(Field<T> base) {
            return absent() ? base : this;
        }
    }

    /** The one reading of a key's JSON (admin API, console forms, pool import, demo seed). */
    public static KeyPatch parse(JsonNode body) {
        return new KeyPatch(Field.read(body, "name", KeyPatch::name), Field.read(body, "owner_label", KeyPatch::ownerLabel),
                Field.read(body, "enabled", KeyPatch::enabled), Field.read(body, "expires_at", KeyPatch::expiry),
                PolicyPatch.parse(body));
    }

    private static String name(JsonNode n) {
        String name = n.isTextual() ? n.asText().trim() : "";
        if (name.isEmpty() || name.length() > 128) {
            throw new ValidationException("validation.name", "name", "name must be 1–128 characters");
        }
        return name;
    }

    private static String ownerLabel(JsonNode n) {
        if (n.isNull()) {
            return null;
        }
        if (!n.isTextual() || n.asText().length() > 128) {
            throw new ValidationException("validation.owner_label", "owner_label",
                    "owner_label must be text of at most 128 characters");
        }
        return n.asText();
    }

    private static Boolean enabled(JsonNode n) {
        if (!n.isBoolean()) {
            throw new ValidationException("validation.enabled", "enabled", "enabled must be true or false");
        }
        return n.asBoolean();
    }

    private static Instant expiry(JsonNode n) {
        if (n.isNull()) {
            return null;
        }
        try {
            return Instant.parse(n.asText());
        } catch (DateTimeParseException e) {
            throw new ValidationException("validation.expires_at", "expires_at",
                    "expires_at must be an ISO-8601 instant such as 2027-01-01T00:00:00Z");
        }
    }
}
