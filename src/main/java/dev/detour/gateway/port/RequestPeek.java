package dev.detour.gateway.port;

/**
 * What the proxy needs from a request body without building a tree (P-2): the top-level
 * {@code model} (with the byte span of its JSON string so it can be rewritten in place),
 * {@code stream}, and the fields that bind a request to an account or a session.
 *
 * @param modelStart   byte offset of the model value's opening quote, or -1
 * @param modelEnd     byte offset just past its closing quote, or -1
 * @param includeUsage a Chat client's {@code stream_options.include_usage} (B-3 keeps it when it bridges a stream)
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
        String sessionId,
        boolean includeUsage) {

    public static final RequestPeek EMPTY = new RequestPeek(null, -1, -1, false, null, null, false, false, null);

    /** A peek of a body that does not ask for stream usage. */
    public RequestPeek(String model, int modelStart, int modelEnd, boolean stream, String previousResponseId,
            String conversation, boolean store, boolean background, String sessionId) {
        this(model, modelStart, modelEnd, stream, previousResponseId, conversation, store, background, sessionId,
                false);
    }

    /** The same peek with the S-6 conversation id replaced (a session header outranks the body, P-12). */
    public RequestPeek withSessionId(String id) {
        return java.util.Objects.equals(id, sessionId) ? this
                : new RequestPeek(model, modelStart, modelEnd, stream, previousResponseId, conversation, store,
                        background, id, includeUsage);
    }

    /** P-10: a request tied to state that lives on one account. */
    public boolean stateBound() {
        return previousResponseId != null || conversation != null;
    }

    /** P-10: a request with side effects that must never be replayed on a second account. */
    public boolean sideEffecting() {
        return store || background;
    }

    /**
     * P-10 / P-10': never sent twice once dispatched, not even to the same account: a side-effecting
     * request, or one in a server-side {@code conversation} (the upstream appends its items there).
     */
    public boolean neverSentTwice() {
        return sideEffecting() || conversation != null;
    }

    /** P-10': the binding key that routes this request — the previous response's id, else the conversation's. */
    public String stateId() {
        return previousResponseId != null ? previousResponseId : conversationBindingKey();
    }

    /**
     * P-10': the binding key of the conversation, kept apart from response ids (a client-chosen
     * conversation id can never stand for another request's response); null without a conversation
     * or when too long to store (it then stays unknown: one account, never replayed).
     */
    public String conversationBindingKey() {
        String key = conversation == null ? null : "conversation:" + conversation;
        return key == null || key.length() > 191 ? null : key;
    }
}
