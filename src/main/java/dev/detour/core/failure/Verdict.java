package dev.detour.core.failure;

/**
 * The classifier's answer for one attempt: success, a failure to record (transient or permanent),
 * or a client error (None class, P-3: returned to the client as-is, never retried, no state change).
 * For a client error {@code failure} still describes it (class NONE) for the attempt chain.
 */
public record Verdict(Outcome outcome, Failure failure) {
    public enum Outcome { SUCCESS, FAILURE, CLIENT_ERROR }

    public static final Verdict SUCCESS = new Verdict(Outcome.SUCCESS, null);

    public static Verdict failed(Failure failure) {
        return new Verdict(Outcome.FAILURE, failure);
    }

    public static Verdict clientError(Failure failure) {
        return new Verdict(Outcome.CLIENT_ERROR, failure);
    }

    public boolean isSuccess() {
        return outcome == Outcome.SUCCESS;
    }

    public boolean isFailure() {
        return outcome == Outcome.FAILURE;
    }

    public boolean isClientError() {
        return outcome == Outcome.CLIENT_ERROR;
    }
}
