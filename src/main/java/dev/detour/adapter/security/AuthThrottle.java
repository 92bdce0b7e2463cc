package dev.detour.adapter.security;

import dev.detour.admin.port.SignInThrottle;
import dev.detour.core.security.FailureDelays;
import dev.detour.core.security.FailureDelays.Failures;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * X-3 failed-authentication throttle for one kind of credential (console passwords, the admin
 * token, Detour keys): remembers failures per client address, and per client address and user
 * name, and answers how long a new try from there must wait ({@link FailureDelays}). Only the
 * address (and name) that failed is ever slowed: an address with no failures is never refused,
 * whatever others did, so no one can lock the owner out. The caller answers a wait with 429 and
 * {@code Retry-After} at once, without checking the credential (no oracle) and without sleeping.
 *
 * <p>In memory, per instance. Each map holds at most {@code maxEntries}: above it, records that
 * decayed to zero go first, then the oldest ones (fail open: an evicted address starts afresh).
 * IPv6 clients are counted per /64, the block one subscriber usually holds.
 */
public final class AuthThrottle implements SignInThrottle {
    public static final int MAX_ENTRIES = 20_000; // ≈ 160 bytes a record: ≈ 3 MiB a full map (measured)
    private static final Logger log = LoggerFactory.getLogger(AuthThrottle.class);
    private static final int MAX_NAME_LENGTH = 256;

    private final String credential;
    private final Clock clock;
    private final FailureBook byAddress;
    private final FailureBook byAddressAndName;

    AuthThrottle(String credential, Clock clock, FailureDelays perAddress, FailureDelays perAddressAndName,
            int maxEntries) {
        this.credential = credential;
        this.clock = clock;
        this.byAddress = new FailureBook(perAddress, maxEntries);
        this.byAddressAndName = new FailureBook(perAddressAndName, maxEntries);
    }

    /** The standard rules ({@link FailureDelays#PER_ADDRESS}, {@link FailureDelays#PER_ADDRESS_AND_NAME}). */
    public static AuthThrottle standard(String credential, Clock clock) {
        return new AuthThrottle(credential, clock, FailureDelays.PER_ADDRESS, FailureDelays.PER_ADDRESS_AND_NAME,
                MAX_ENTRIES);
    }

    /**
     * The wait before a try from {@code address}; {@link Duration#ZERO} when it may go ahead. The
     * usual case (no failures from there) is one map lookup, no allocation, no lock.
     */
    public Duration waitFor(String address) {
        return byAddress.isEmpty() ? Duration.ZERO : byAddress.waitFor(addressKey(address), clock);
    }

    /** As {@link #waitFor(String)}, also counting that address's failures on this user name. */
    @Override
    public Duration waitFor(String address, String name) {
        Duration forAddress = waitFor(address);
        Duration forName = byAddressAndName.isEmpty() ? Duration.ZERO
                : byAddressAndName.waitFor(nameKey(address, name), clock);
        return forName.compareTo(forAddress) > 0 ? forName : forAddress;
    }

    /**
     * The wait before a try of a token or key from {@code address}: the address's own wait, or that
     * credential's from there if it already failed there (see {@link #failedCredential}); with no
     * credential presented, the address's own wait.
     */
    public Duration waitForCredential(String address, String credential) {
        if (byAddress.isEmpty() && byAddressAndName.isEmpty()) {
            return Duration.ZERO; // the usual case: nothing failed anywhere, so no digest is computed
        }
        return credential == null ? waitFor(address) : waitFor(address, digest(credential));
    }

    /**
     * A wrong token or key from {@code address}. The address counts each distinct wrong credential
     * once: guessing means ever new credentials, while a client stuck on one stale key (a revoked
     * key left in an agent's environment) slows only that key from there, not every other client
     * behind the same address (an office NAT). Repeats of one credential count for the pair.
     */
    public void failedCredential(String address, String credential) {
        String pair = nameKey(address, digest(credential));
        if (!byAddressAndName.contains(pair)) {
            failed(address);
        }
        byAddressAndName.failed(pair, clock.instant());
    }

    /** A failed try from {@code address} (a wrong token or key). */
    public void failed(String address) {
        Instant now = clock.instant();
        String key = addressKey(address);
        Failures after = byAddress.failed(key, now);
        if (after.count() == byAddress.rule().delayFrom()) {
            // once per episode: operators (or fail2ban) see who is guessing; never the credential itself
            log.warn("X-3: {} failures of the {} from {}; its further tries now wait", after.count(), credential,
                    key);
        }
    }

    /** A failed sign-in of {@code name} from {@code address}: counts for the address and for the pair. */
    @Override
    public void failed(String address, String name) {
        failed(address);
        byAddressAndName.failed(nameKey(address, name), clock.instant());
    }

    /**
     * A good sign-in of {@code name} from {@code address} clears that pair only: the address's own
     * count stays, or one valid account would let an address keep guessing others.
     */
    @Override
    public void succeeded(String address, String name) {
        byAddressAndName.forget(nameKey(address, name));
    }

    /** Records held (both maps), for the memory-bound tests. */
    int size() {
        return byAddress.size() + byAddressAndName.size();
    }

    private static String nameKey(String address, String name) {
        String n = name == null ? "" : name.trim().toLowerCase(Locale.ROOT);
        return addressKey(address) + '\n' + (n.length() > MAX_NAME_LENGTH ? n.substring(0, MAX_NAME_LENGTH) : n);
    }

    /**
     * A short stand-in for a wrong credential, so no presented secret is kept in memory. 64-bit
     * FNV-1a: a collision only merges two wrong credentials into one pair, which slows them sooner.
     */
    static String digest(String credential) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < credential.length(); i++) {
            h = (h ^ credential.charAt(i)) * 0x100000001b3L;
        }
        return Long.toHexString(h);
    }

    private static final Pattern IPV6_LITERAL = Pattern.compile("\\[?[0-9a-fA-F:.]+(%[0-9A-Za-z]+)?]?");

    /** IPv4 as is; IPv6 by its /64 (one subscriber's block), so rotating through it gains nothing. */
    static String addressKey(String address) {
        if (address == null) {
            return "";
        }
        if (address.indexOf(':') < 0 || !IPV6_LITERAL.matcher(address).matches()) {
            return address;
        }
        String literal = address.replace("[", "").replace("]", "");
        int zone = literal.indexOf('%');
        try {
            // a literal (checked above), so never a DNS lookup
            byte[] b = InetAddress.getByName(zone < 0 ? literal : literal.substring(0, zone)).getAddress();
            if (b.length != 16) {
                return InetAddress.getByAddress(b).getHostAddress(); // IPv4-mapped
            }
            return String.format("%x:%x:%x:%x::/64", (b[0] & 0xff) << 8 | b[1] & 0xff,
                    (b[2] & 0xff) << 8 | b[3] & 0xff, (b[4] & 0xff) << 8 | b[5] & 0xff,
                    (b[6] & 0xff) << 8 | b[7] & 0xff);
        } catch (UnknownHostException e) {
            return address;
        }
    }

    /** One bounded map of failure records under one rule. */
    private static final class FailureBook {
        private final FailureDelays rule;
        private final int maxEntries;
        private final Map<String, Failures> records = new ConcurrentHashMap<>();
        private final AtomicBoolean pruning = new AtomicBoolean();

        FailureBook(FailureDelays rule, int maxEntries) {
            this.rule = rule;
            this.maxEntries = maxEntries;
        }

        FailureDelays rule() {
            return rule;
        }

        boolean isEmpty() {
            return records.isEmpty();
        }

        boolean contains(String key) {
            return records.containsKey(key);
        }

        int size() {
            return records.size();
        }

        Duration waitFor(String key, Clock clock) {
            Failures failures = records.get(key);
            return failures == null ? Duration.ZERO : rule.waitBefore(failures, clock.instant());
        }

        Failures failed(String key, Instant now) {
            Failures after = records.compute(key, (k, before) -> rule.afterFailure(before, now));
            if (records.size() > maxEntries) {
                prune(now);
            }
            return after;
        }

        void forget(String key) {
            records.remove(key);
        }

        /** Decayed records first; if still above 90 % of the cap, the oldest last failures go. */
        private void prune(Instant now) {
            if (!pruning.compareAndSet(false, true)) {
                return; // another thread prunes; the map may briefly hold a few more than the cap
            }
            try {
                records.values().removeIf(f -> rule.forgotten(f, now));
                int excess = records.size() - maxEntries / 10 * 9;
                if (excess > 0) {
                    records.entrySet().stream()
                            .sorted(Comparator.comparing((Map.Entry<String, Failures> e) -> e.getValue().last()))
                            .limit(excess).map(Map.Entry::getKey).toList()
                            .forEach(records::remove);
                }
            } finally {
                pruning.set(false);
            }
        }
    }
}
