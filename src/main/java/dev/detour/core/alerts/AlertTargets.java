package dev.detour.core.alerts;

import java.util.Arrays;

/**
 * W-1 / X-9: which addresses an alert channel may send to. An admin types a URL or an SMTP host and
 * the server connects to it, so an alert channel is a way to make the server reach places the admin
 * cannot (SSRF). Cloud metadata services (they hand out credentials), link-local, "this network" and
 * multicast addresses are never a target. Loopback and private ranges (RFC 1918, CGNAT, IPv6 unique
 * local) are a target only where the operator allows them ({@code DETOUR_ALERT_PRIVATE_TARGETS}):
 * an intranet receiver is a real use, but it must be a decision, not a default.
 */
public final class AlertTargets {
    /** Why an address is refused; {@link #code()} ends the 422 code {@code validation.<field>.<code>}. */
    public enum Refusal {
        /** Metadata, link-local, unspecified or multicast: never. */
        FORBIDDEN("forbidden_target"),
        /** Loopback or a private range while the operator has not allowed them. */
        PRIVATE("private_target");

        private final String code;

        Refusal(String code) {
            this.code = code;
        }

        public String code() {
            return code;
        }
    }

    private AlertTargets() {
    }

    /**
     * Why the address may not be sent to, or null when it may: {@code address} is its 4 (IPv4) or 16
     * (IPv6) bytes in network order, as {@code InetAddress.getAddress()} gives them (an IPv4-mapped
     * IPv6 address counts as its IPv4 address).
     */
    public static Refusal refusal(byte[] address, boolean privateAllowed) {
        byte[] b = address.length == 16 && mappedIpv4(address) ? Arrays.copyOfRange(address, 12, 16)
                : address;
        if (metadata(b) || linkLocal(b) || unspecifiedOrThisNetwork(b) || multicast(b)) {
            return Refusal.FORBIDDEN;
        }
        if (loopback(b) || privateRange(b)) {
            return privateAllowed ? null : Refusal.PRIVATE;
        }
        return null;
    }

    private static int u(byte[] b, int i) {
        return b[i] & 0xff;
    }

    /** The metadata services of the large clouds, named even where a range rule would also catch them. */
    private static boolean metadata(byte[] b) {
        if (b.length == 4) {
            return u(b, 0) == 169 && u(b, 1) == 254 && u(b, 2) == 169 && u(b, 3) == 254 // AWS, GCP, Azure, …
                    || u(b, 0) == 100 && u(b, 1) == 100 && u(b, 2) == 100 && u(b, 3) == 200; // Alibaba Cloud
        }
        // fd00:ec2::254: AWS over IPv6
        return u(b, 0) == 0xfd && u(b, 1) == 0 && u(b, 2) == 0x0e && u(b, 3) == 0xc2 && allZero(b, 4, 14)
                && u(b, 14) == 0x02 && u(b, 15) == 0x54;
    }

    /** 169.254.0.0/16, fe80::/10. */
    private static boolean linkLocal(byte[] b) {
        return b.length == 4 ? u(b, 0) == 169 && u(b, 1) == 254 : u(b, 0) == 0xfe && (u(b, 1) & 0xc0) == 0x80;
    }

    /** 0.0.0.0/8 ("this network"; some systems connect it to the local host) and {@code ::}. */
    private static boolean unspecifiedOrThisNetwork(byte[] b) {
        return b.length == 4 ? u(b, 0) == 0 : allZero(b, 0, 16);
    }

    /** 224.0.0.0/4, ff00::/8. */
    private static boolean multicast(byte[] b) {
        return b.length == 4 ? (u(b, 0) & 0xf0) == 224 : u(b, 0) == 0xff;
    }

    /** 127.0.0.0/8, ::1. */
    private static boolean loopback(byte[] b) {
        return b.length == 4 ? u(b, 0) == 127 : allZero(b, 0, 15) && u(b, 15) == 1;
    }

    /** 10/8, 172.16/12, 192.168/16, 100.64/10 (carrier-grade NAT); fc00::/7 (unique local), fec0::/10 (site-local). */
    private static boolean privateRange(byte[] b) {
        if (b.length == 4) {
            return u(b, 0) == 10 || u(b, 0) == 172 && (u(b, 1) & 0xf0) == 16 || u(b, 0) == 192 && u(b, 1) == 168
                    || u(b, 0) == 100 && (u(b, 1) & 0xc0) == 64;
        }
        return (u(b, 0) & 0xfe) == 0xfc || u(b, 0) == 0xfe && (u(b, 1) & 0xc0) == 0xc0;
    }

    /** ::ffff:a.b.c.d. */
    private static boolean mappedIpv4(byte[] b) {
        return allZero(b, 0, 10) && u(b, 10) == 0xff && u(b, 11) == 0xff;
    }

    private static boolean allZero(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
