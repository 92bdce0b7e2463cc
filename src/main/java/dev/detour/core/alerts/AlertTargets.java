package dev.detour.core.alerts;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;

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

    /** Why {@code address} may not be sent to, or null when it may. */
    public static Refusal refusal(InetAddress address, boolean privateAllowed) {
        if (metadata(address) || address.isLinkLocalAddress() || address.isAnyLocalAddress()
                || address.isMulticastAddress() || thisNetwork(address)) {
            return Refusal.FORBIDDEN;
        }
        if (address.isLoopbackAddress() || address.isSiteLocalAddress() || sharedOrUniqueLocal(address)) {
            return privateAllowed ? null : Refusal.PRIVATE;
        }
        return null;
    }

    /** The metadata services of the large clouds, named even where a range rule would also catch them. */
    private static boolean metadata(InetAddress address) {
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            int ip = ((b[0] & 0xff) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
            return ip == 0xA9FEA9FE     // 169.254.169.254: AWS, GCP, Azure, OpenStack, Oracle …
                    || ip == 0x646464C8; // 100.100.100.200: Alibaba Cloud
        }
        // fd00:ec2::254: AWS over IPv6
        return address instanceof Inet6Address && (b[0] & 0xff) == 0xfd && b[1] == 0 && (b[2] & 0xff) == 0x0e
                && (b[3] & 0xff) == 0xc2 && allZero(b, 4, 14) && b[14] == 0x02 && (b[15] & 0xff) == 0x54;
    }

    /** 0.0.0.0/8: "this network"; some systems connect it to the local host. */
    private static boolean thisNetwork(InetAddress address) {
        return address instanceof Inet4Address && address.getAddress()[0] == 0;
    }

    /** 100.64.0.0/10 (carrier-grade NAT, shared address space) and fc00::/7 (IPv6 unique local). */
    private static boolean sharedOrUniqueLocal(InetAddress address) {
        byte[] b = address.getAddress();
        if (address instanceof Inet4Address) {
            return (b[0] & 0xff) == 100 && (b[1] & 0xc0) == 64;
        }
        return (b[0] & 0xfe) == 0xfc;
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
