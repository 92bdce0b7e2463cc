package dev.detour.gateway;

import dev.detour.bridge.ToolNames;
import dev.detour.core.account.EndpointFamily;
import dev.detour.gateway.port.ClientCall;
import dev.detour.gateway.port.RequestEvent.AttemptRecord;
import dev.detour.gateway.port.UpstreamRequest;

/**
 * What one account is sent: the request (translated when bridged), the protocol it is asked in (B-1) and the names
 * the client's tools went up under (B-6).
 */
record Asked(UpstreamRequest request, EndpointFamily protocol, ToolNames tools) {
    boolean bridgedFor(ClientCall call) {
        return protocol != call.family();
    }

    /** B-1: the attempt record names the bridge's two ends when it went through one. */
    AttemptRecord mark(ClientCall call, AttemptRecord attempt) {
        return bridgedFor(call) ? attempt.bridged(call.family().wire(), protocol.wire()) : attempt;
    }
}
