package dev.detour.bridge;

import dev.detour.core.account.EndpointFamily;

/**
 * B-2: the id a bridged answer carries is shaped like the client's protocol ({@code chatcmpl-…},
 * {@code msg_…}, {@code resp_…}) and derived from the upstream's, so a log line of either side finds the
 * other: the upstream's known prefix is replaced, the rest kept.
 */
final class AnswerIds {
    private static final String[] UPSTREAM_PREFIXES = {"chatcmpl-", "msg_", "resp_"};

    private AnswerIds() {
    }

    static String forClient(EndpointFamily client, String upstreamId) {
        String rest = upstreamId == null || upstreamId.isEmpty() ? "bridged" : upstreamId;
        for (String prefix : UPSTREAM_PREFIXES) {
            if (rest.startsWith(prefix) && rest.length() > prefix.length()) {
                rest = rest.substring(prefix.length());
                break;
            }
        }
        return prefixOf(client) + rest;
    }

    /** An id for one output item of a Responses answer, e.g. {@code msg_<rest>_0}. */
    static String item(String kind, String answerId, int index) {
        return kind + "_" + answerId.substring(answerId.indexOf('_') + 1) + "_" + index;
    }

    private static String prefixOf(EndpointFamily client) {
        return switch (client) {
            case MESSAGES -> "msg_";
            case RESPONSES -> "resp_";
            default -> "chatcmpl-";
        };
    }
}
