package dev.detour.alerts;

/** W-1 port: sends one alert to one channel in its format (HTTP webhook, bot API or SMTP), with timeouts. */
public interface AlertSender {
    SendOutcome send(AlertChannel channel, Delivery delivery);
}
