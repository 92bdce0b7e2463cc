package dev.detour.core.account;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * B-1: which protocol an account is asked in. Its {@code protocols} are the client protocols it serves
 * natively; its endpoint families say which client endpoints it serves at all. A conversational endpoint
 * (Chat Completions, Responses, Messages) among its families but not among its protocols is served through
 * the bridge, in the first of its protocols; every other endpoint is passed through as it came.
 */
public final class Protocols {
    /** The three conversational protocols, in the order a bridge picks the account's upstream protocol. */
    public static final List<EndpointFamily> CONVERSATIONAL = List.of(EndpointFamily.CHAT_COMPLETIONS,
            EndpointFamily.RESPONSES, EndpointFamily.MESSAGES);

    private Protocols() {
    }

    public static boolean conversational(EndpointFamily family) {
        return family.conversational();
    }

    /**
     * The native protocols of an account that does not list its own: the platform's, plus every
     * conversational family its explicit endpoint families name that the platform can speak — before
     * bridging, listing {@code messages} on a relay meant passing /v1/messages through, and it still does.
     */
    public static Set<EndpointFamily> defaults(Platform platform, Set<EndpointFamily> explicitFamilies) {
        if (explicitFamilies == null) {
            return platform.defaultProtocols();
        }
        Set<EndpointFamily> protocols = EnumSet.copyOf(platform.defaultProtocols());
        for (EndpointFamily family : explicitFamilies) {
            if (conversational(family) && platform.speaks(family)) {
                protocols.add(family);
            }
        }
        return protocols;
    }

    /** The protocol {@code account} is asked in for a request of {@code client}'s family. */
    public static EndpointFamily upstreamFor(Account account, EndpointFamily client) {
        if (!conversational(client) || account.protocols().contains(client)) {
            return client;
        }
        for (EndpointFamily protocol : CONVERSATIONAL) {
            if (account.protocols().contains(protocol)) {
                return protocol;
            }
        }
        return client; // no conversational protocol declared: nothing to bridge from
    }

    /** Whether a request of {@code client}'s family reaches {@code account} through the bridge. */
    public static boolean bridged(Account account, EndpointFamily client) {
        return upstreamFor(account, client) != client;
    }
}
