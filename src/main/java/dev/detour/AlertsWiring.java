package dev.detour;

import dev.detour.adapter.alerts.ChannelSenders;
import dev.detour.adapter.crypto.Secrets;
import dev.detour.adapter.db.AlertOutbox;
import dev.detour.adapter.db.Database;
import dev.detour.adapter.db.MyBatisAlertStore;
import dev.detour.admin.port.Changes;
import dev.detour.alerts.AlertChannels;
import dev.detour.alerts.AlertDispatcher;
import dev.detour.alerts.AlertTicker;
import dev.detour.alerts.PoolWatch;
import dev.detour.alerts.TargetCheck;
import java.time.Clock;

/** W-1 alerts: the pool watch, the dispatcher and its delivery log, the channel use cases, on one thread. */
record AlertsWiring(AlertChannels channels, AlertTicker ticker, MyBatisAlertStore store) {

    /** W-2: the channel use cases on an admin unit of work, so an import writes its channels in its transaction. */
    AlertChannels channelsIn(Changes unitOfWork) {
        return channels.on(store.joining(unitOfWork));
    }

    static AlertsWiring create(Database database, Secrets secrets, GatewayWiring gateway, RecoveryWiring recovery,
            Clock clock, boolean privateTargets) {
        MyBatisAlertStore store = new MyBatisAlertStore(database, secrets.box());
        TargetCheck targets = new TargetCheck(privateTargets);
        AlertDispatcher dispatcher = new AlertDispatcher(store, new ChannelSenders(clock, targets),
                gateway.health()::available);
        // one instance publishes pool events: the recovery lease holder, or the only instance there is
        PoolWatch watch = new PoolWatch(gateway.snapshot()::view, gateway.smartKeys()::spentMicros,
                gateway.smartKeys().limits()::headroom, gateway.health()::available,
                () -> recovery.scheduler().isLeader() || gateway.load().registry().liveCount() <= 1, dispatcher,
                AlertOutbox.KINDS); // account, model and halt transitions are recorded with their state writes
        gateway.metrics().counter("detour_alerts_dropped_total",
                "Alerts dropped because the alert queue was full (W-1).", dispatcher::dropped);
        gateway.metrics().gauge("detour_alert_deliveries_unwritten",
                "Alert deliveries kept in memory because the database did not take them (W-1, D-1).",
                dispatcher::unwritten);
        return new AlertsWiring(new AlertChannels(store, dispatcher, clock, targets),
                new AlertTicker(watch, dispatcher, clock), store);
    }
}
