package dev.detour.adapter.proxy;

import jakarta.servlet.http.HttpServletRequest;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Request;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * O-3: X-Forwarded-For / X-Forwarded-Proto are believed only when the TCP peer is one of
 * {@code DETOUR_TRUSTED_PROXIES} (IP addresses and CIDR ranges). The client is the right-most
 * forwarded address that is not itself a trusted proxy; anything left of it could be forged.
 */
public final class TrustedProxies implements ClientAddress {
    private record Range(byte[] network, int prefix) {
        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            int full = prefix / 8;
            for (int i = 0; i < full; i++) {
                if (address[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            if (rest == 0) {
                return true;
            }
            int mask = (0xFF << (8 - rest)) & 0xFF;
            return (address[full] & mask) == (network[full] & mask);
        }
    }

    private final List<Range> ranges;

    /** @param entries IPs ({@code 10.0.0.5}, {@code ::1}) and CIDRs ({@code 10.0.0.0/8}); validated by the config loader */
    public TrustedProxies(List<String> entries) {
        List<Range> list = new ArrayList<>();
        for (String entry : entries) {
            int slash = entry.indexOf('/');
            byte[] address = parse(slash < 0 ? entry : entry.substring(0, slash));
            if (address == null) {
                throw new IllegalArgumentException("not an IP address: " + entry);
            }
            int prefix = slash < 0 ? address.length * 8 : Integer.parseInt(entry.substring(slash + 1));
            if (prefix < 0 || prefix > address.length * 8) {
                throw new IllegalArgumentException("bad prefix length: " + entry);
            }
            list.add(new Range(address, prefix));
        }
        this.ranges = List.copyOf(list);
    }

    public boolean isTrusted(String ip) {
        if (ranges.isEmpty()) {
            return false; // none configured: no address to parse
        }
        byte[] address = ip == null ? null : parse(ip);
        return address != null && ranges.stream().anyMatch(r -> r.contains(address));
    }

    @Override
    public String of(HttpServletRequest request) {
        String peer = request.getRemoteAddr();
        if (ranges.isEmpty() || request.getHeader("X-Forwarded-For") == null) {
            return peer; // nothing to believe: skip parsing the peer address on every request
        }
        return clientIp(peer, java.util.Collections.list(request.getHeaders("X-Forwarded-For")));
    }

    /** The same for a request the relay handles without the servlet layer. */
    public String of(Request request) {
        String peer = Request.getRemoteAddr(request);
        if (ranges.isEmpty() || !request.getHeaders().contains(HttpHeader.X_FORWARDED_FOR)) {
            return peer;
        }
        return clientIp(peer, request.getHeaders().getValuesList(HttpHeader.X_FORWARDED_FOR));
    }

    /** The client address for a peer and its X-Forwarded-For header values (in arrival order). */
    public String clientIp(String peer, List<String> forwardedFor) {
        if (!isTrusted(peer) || forwardedFor.isEmpty()) {
            return peer;
        }
        List<String> hops = new ArrayList<>();
        forwardedFor.forEach(v -> {
            for (String hop : v.split(",")) {
                if (!hop.isBlank()) {
                    hops.add(hop.trim());
                }
            }
        });
        for (int i = hops.size() - 1; i >= 0; i--) {
            String hop = hops.get(i);
            if (parse(hop) == null) {
                return peer; // garbage in the chain: believe nothing beyond our own proxy
            }
            if (!isTrusted(hop) || i == 0) {
                return hop;
            }
        }
        return peer;
    }

    /** True when the request reached a trusted proxy over https (X-Forwarded-Proto from a trusted peer). */
    public boolean forwardedHttps(String peer, String forwardedProto) {
        return forwardedProto != null && isTrusted(peer) && forwardedProto.trim().equalsIgnoreCase("https");
    }

    // compiled once: parse runs on every request (String.matches compiled these per call, seen in JFR)
    private static final Pattern ADDRESS_CHARS = Pattern.compile("[0-9a-fA-F:.]+");
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    /** Literal IPv4/IPv6 only: never a DNS lookup. */
    static byte[] parse(String ip) {
        String s = ip.startsWith("[") && ip.endsWith("]") ? ip.substring(1, ip.length() - 1) : ip;
        if (s.isEmpty() || !ADDRESS_CHARS.matcher(s).matches()) {
            return null;
        }
        if (!s.contains(":") && !IPV4.matcher(s).matches()) {
            return null;
        }
        try {
            byte[] bytes = InetAddress.getByName(s).getAddress();
            return bytes;
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
