package dev.detour.gateway.live;

import dev.detour.core.cluster.Heartbeat;
import dev.detour.core.cluster.InstanceShare;
import dev.detour.core.cluster.RegisteredInstance;
import dev.detour.gateway.port.InstanceStore;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * G-2 instance registry: this instance beats its row every {@link Heartbeat#PERIOD} and, from the
 * rows still live, takes its share of every account's {@code max_in_flight} (S-5). Time is the
 * app's clock; the loop only calls {@link #beat(Instant)}, which tests call themselves. A beat that
 * cannot reach the database keeps the last count; the first one that reaches it again still counts the
 * instances counted before for {@link Heartbeat#GONE_AFTER} (they could not beat either if the whole
 * database was away). With {@code DETOUR_INSTANCES} set (pinned) the
 * instance still registers, but its share stays the pinned one.
 */
public final class InstanceRegistry implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(InstanceRegistry.class);

    private final InstanceStore store;
    private final LoadDistribution load;
    private final Clock clock;
    private final boolean pinned;
    private volatile RegisteredInstance self;
    private volatile int liveCount = 1;
    private volatile boolean failing;
    /** Beats one at a time (the loop's and a test's); apart from the loop's lock, so a stop never waits on a beat. */
    private final Object beating = new Object();
    /** Set at {@link #close()}: a beat already under way then writes nothing (the row stays removed). */
    private boolean left;
    /** Under {@link #beating}: the last beat did not reach the database. */
    private boolean missedBeat;
    /** Under {@link #beating}: the ids counted at the last beat that reached the database. */
    private Set<String> counted = Set.of();
    /** Under {@link #beating}: until then, an instance counted before this one lost the database still counts. */
    private Instant graceUntil = Instant.MIN;
    private ScheduledExecutorService loop;

    public InstanceRegistry(InstanceStore store, LoadDistribution load, Clock clock, String version, boolean pinned) {
        this.store = store;
        this.load = load;
        this.clock = clock;
        this.pinned = pinned;
        Instant now = clock.instant();
        this.self = new RegisteredInstance("detour-" + UUID.randomUUID(), "unknown", version, now, now);
    }

    /** Registers at {@code address} with a first beat at once, then beats on a daemon thread. */
    public synchronized void start(String address) {
        if (loop != null) {
            return;
        }
        self = new RegisteredInstance(self.id(), address, self.version(), self.startedAt(), self.lastSeenAt());
        beatQuietly();
        loop = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "detour-heartbeat");
            t.setDaemon(true);
            return t;
        });
        long millis = Heartbeat.PERIOD.toMillis();
        loop.scheduleWithFixedDelay(this::beatQuietly, millis, millis, TimeUnit.MILLISECONDS);
    }

    /** Stops beating without removing the row: what a crashed instance looks like to the others. */
    public synchronized void stopLoop() {
        if (loop != null) {
            loop.shutdownNow();
            loop = null;
        }
    }

    /**
     * One heartbeat: refresh this instance's row, read every row, take the share among the live ones.
     * Rows gone for a day are forgotten (only when there are any: no write otherwise).
     */
    public InstanceShare beat(Instant now) {
        synchronized (beating) {
            if (left) {
                return load.share(); // stopped: a beat that was already under way changes nothing
            }
            RegisteredInstance beat = self.seenAt(now);
            List<RegisteredInstance> all;
            try {
                store.beat(beat);
                self = beat;
                all = store.all();
            } catch (RuntimeException e) {
                missedBeat = true;
                throw e;
            }
            if (missedBeat) {
                // G-2: when the whole database was away nobody could beat, so every other row now looks silent.
                // Counting them gone would hand this instance the whole limit while the others, back too, keep
                // their parts; those it counted before keep counting for one more bound, time for each to beat
                // (one that died meanwhile is then dropped as usual)
                // from when the read came back, not from the beat's start: a call that waited out the outage
                // began long before (seen on Galera: 34 s), and the others need the whole bound from now on
                Instant readAt = clock.instant();
                graceUntil = (readAt.isAfter(now) ? readAt : now).plus(Heartbeat.GONE_AFTER);
                missedBeat = false;
            }
            Instant forgetBefore = now.minus(Heartbeat.FORGOTTEN_AFTER);
            if (all.stream().anyMatch(i -> i.lastSeenAt().isBefore(forgetBefore))) {
                store.forgetUnseenSince(forgetBefore);
            }
            Set<String> before = counted;
            boolean grace = now.isBefore(graceUntil);
            List<RegisteredInstance> live = all.stream()
                    .filter(i -> i.liveAt(now) || grace && before.contains(i.id())).toList();
            counted = live.stream().map(RegisteredInstance::id).collect(Collectors.toUnmodifiableSet());
            InstanceShare share = InstanceShare.among(live, self.id());
            if (share.count() != liveCount) {
                log.info("{} live Detour instance(s) share the pool (this one is #{})", share.count(),
                        share.rank() + 1);
            }
            liveCount = share.count();
            if (!pinned) {
                load.useShare(share);
            }
            return share;
        }
    }

    /** The registry as stored now (live computed at this instance's now), in start order. */
    public List<RegisteredInstance> instances() {
        return store.all().stream()
                .sorted(RegisteredInstance.START_ORDER).toList();
    }

    public Instant now() {
        return clock.instant();
    }

    public String selfId() {
        return self.id();
    }

    /** Whether {@code DETOUR_INSTANCES} fixes the count (the registry then only lists). */
    public boolean pinned() {
        return pinned;
    }

    /** How many instances were live at the last beat that reached the database (this one included). */
    public int liveCount() {
        return liveCount;
    }

    /** D-3 orderly stop (after the drain, so no request of this instance still holds a lease): the row goes. */
    @Override
    public void close() {
        stopLoop();
        synchronized (beating) {
            left = true;
            try {
                store.remove(self.id());
            } catch (RuntimeException e) {
                log.warn("instance registry row {} not removed (the others count it gone after {} s): {}", self.id(),
                        Heartbeat.GONE_AFTER.toSeconds(), e.toString());
            }
        }
    }

    private void beatQuietly() {
        try {
            beat(clock.instant());
            if (failing) {
                log.info("instance heartbeat written again");
                failing = false;
            }
        } catch (RuntimeException e) {
            if (!failing) {
                log.warn("instance heartbeat failed, keeping the last count of {} live instance(s): {}", liveCount,
                        e.toString());
                failing = true;
            }
        }
    }
}
