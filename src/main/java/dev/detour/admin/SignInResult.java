package dev.detour.admin;

import java.time.Duration;

/** The answer to a sign-in attempt; a rejection never says whether the name or the password was wrong. */
public record SignInResult(Outcome outcome, String username, Duration retryAfter) {
    public enum Outcome { SIGNED_IN, REJECTED, THROTTLED }

    static SignInResult signedIn(String username) {
        return new SignInResult(Outcome.SIGNED_IN, username, Duration.ZERO);
    }

    static SignInResult rejected() {
        return new SignInResult(Outcome.REJECTED, null, Duration.ZERO);
    }

    static SignInResult throttled(Duration retryAfter) {
        return new SignInResult(Outcome.THROTTLED, null, retryAfter);
    }

    public boolean signedIn() {
        return outcome == Outcome.SIGNED_IN;
    }
}
