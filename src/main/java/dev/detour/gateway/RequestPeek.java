package dev.detour.gateway;

/**
 * What the proxy needs from a request body without building a tree (P-2): the top-level
 * {@code model} (with the byte span of its JSON string so it can be rewritten in place),
 * {@code stream}, and the fields that bind a request to an account or a session.
 *
 * @param modelStart byte offset of the model value's opening quote, or -1
 * @param modelEnd   byte offset just past its closing quote, or -1
 */
public record RequestPeek(
        String model,
        int modelStart,
        int modelEnd,
        boolean stream,
        String previousResponseId,
        String conversation,
        boolean store,
        boolean background,
        String sessionId) {

    public static final RequestPeek EMPTY = new RequestPeek(null, -1, -1, false, null, null, false, false, null);

    /** P-10: a request tied to state that lives on one account. */
    public boolean stateBound() {
        return previousResponseId != null || conversation != null;
    }

    /** P-10: a request with side effects that must never be replayed on a second account. */
    public boolean sideEffecting() {
        return store || background;
    }
}
