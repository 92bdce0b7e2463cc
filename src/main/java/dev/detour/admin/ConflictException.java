package dev.detour.admin;

/** The change collides with existing data (HTTP 409), e.g. {@code conflict.duplicate_name}. */
public final class ConflictException extends RuntimeException {
    public static final String DUPLICATE_NAME = "conflict.duplicate_name";
    public static final String GROUP_IN_USE = "conflict.group_in_use";
    private final String code;
    private final String field;

    public ConflictException(String code, String field, String message) {
        super(message);
        this.code = code;
        this.field = field;
    }

    public String code() {
        return code;
    }

    public String field() {
        return field;
    }
}
