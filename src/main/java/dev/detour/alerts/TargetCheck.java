package dev.detour.alerts;

import dev.detour.core.ValidationException;
import dev.detour.core.alerts.AlertTargets;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * W-1: {@link AlertTargets} applied to a host name, at both ends: when an admin enters it (a 422 with
 * a stable code) and again before each send (a name may resolve elsewhere later; a refused send is a
 * failed delivery, never a connection). Every address the name resolves to must pass.
 */
public final class TargetCheck {
    /** Loopback and private ranges refused: the default. */
    public static final TargetCheck PUBLIC_ONLY = new TargetCheck(false);
    private final boolean privateAllowed;

    public TargetCheck(boolean privateAllowed) {
        this.privateAllowed = privateAllowed;
    }

    /** Throws 422 {@code validation.<field>.forbidden_target|private_target}; a name that does not resolve passes. */
    public void check(String field, String host) {
        AlertTargets.Refusal refusal = refusal(host);
        if (refusal == AlertTargets.Refusal.FORBIDDEN) {
            throw new ValidationException("validation." + field + "." + refusal.code(), field, field
                    + " points at a link-local, metadata or multicast address, which alerts never reach");
        }
        if (refusal == AlertTargets.Refusal.PRIVATE) {
            throw new ValidationException("validation." + field + "." + refusal.code(), field, field
                    + " points at a loopback or private address; the server allows them only with"
                    + " DETOUR_ALERT_PRIVATE_TARGETS=true");
        }
    }

    /** Why a send to {@code host} is refused now, or null (also when the name does not resolve: the send then fails). */
    public String refusedSend(String host) {
        AlertTargets.Refusal refusal = refusal(host);
        return refusal == null ? null : "target refused (" + refusal.code() + "): " + host;
    }

    private AlertTargets.Refusal refusal(String host) {
        if (host == null) {
            return null;
        }
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        InetAddress[] addresses;
        try {
            addresses = InetAddress.getAllByName(bare);
        } catch (UnknownHostException e) {
            return null;
        }
        AlertTargets.Refusal worst = null;
        for (InetAddress address : addresses) {
            AlertTargets.Refusal r = AlertTargets.refusal(address.getAddress(), privateAllowed);
            if (r == AlertTargets.Refusal.FORBIDDEN) {
                return r;
            }
            worst = r == null ? worst : r;
        }
        return worst;
    }
}
