package dev.detour.alerts;

/** W-1: how one send went: {@code httpStatus} when a receiver answered, {@code error} (no secret) when not ok. */
public record SendOutcome(boolean ok, Integer httpStatus, String error) {
    public static SendOutcome sent(Integer httpStatus) {
        return new SendOutcome(true, httpStatus, null);
    }

    public static SendOutcome failed(Integer httpStatus, String error) {
        return new SendOutcome(false, httpStatus, error);
    }
}
