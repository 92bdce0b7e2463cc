package dev.detour.bridge;

import dev.detour.core.account.EndpointFamily;

/**
 * B-2: the id a client sees for a bridged answer, derived from the upstream's own (P-10 binds response
 * ids to the account that made them, so none is invented): the upstream's protocol prefix is swapped for
 * the client's ({@code chatcmpl-}, {@code msg_}, {@code resp_}), the rest is kept, so one upstream answer
 * always gets the same client id.
 */
final class StreamIds {
    private StreamIds() {
    }

    static String forClient(EndpointFamily client, String upstreamId) {
        String rest = upstreamId;
        for (String prefix : new String[] {"chatcmpl-", "msg_", "resp_"}) {
            if (rest.startsWith(prefix)) {
                rest = rest.substring(prefix.length());
                break;
            }
        }
        return switch (client) {
            case MESSAGES -> "msg_" + rest;
            case RESPONSES -> "resp_" + rest;
            default -> "chatcmpl-" + rest;
        };
    }
}
