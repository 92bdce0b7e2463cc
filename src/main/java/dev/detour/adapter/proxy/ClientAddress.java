package dev.detour.adapter.proxy;

import jakarta.servlet.http.HttpServletRequest;

/** The client's IP: the peer address, or X-Forwarded-For when the peer is a trusted proxy (O-3). */
@FunctionalInterface
public interface ClientAddress {
    String of(HttpServletRequest request);

    ClientAddress PEER = HttpServletRequest::getRemoteAddr;
}
