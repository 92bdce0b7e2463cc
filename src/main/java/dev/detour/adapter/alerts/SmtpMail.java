package dev.detour.adapter.alerts;

import dev.detour.alerts.AlertChannel;
import dev.detour.alerts.Delivery;
import jakarta.mail.Message;
import jakarta.mail.MessagingException;
import jakarta.mail.Session;
import jakarta.mail.Transport;
import jakarta.mail.internet.InternetAddress;
import jakarta.mail.internet.MimeMessage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Date;
import java.util.Properties;

/**
 * W-1: an alert as a plain-text email over SMTP (Jakarta Mail, Eclipse Angus), with bounded connect
 * and read timeouts. {@code smtp_security}: {@code starttls} (the default, required when chosen),
 * {@code ssl} (SMTPS) or {@code none} (a relay on the local network).
 */
final class SmtpMail {
    private final Duration connect;
    private final Duration read;

    SmtpMail(Duration connect, Duration read) {
        this.connect = connect;
        this.read = read;
    }

    void send(AlertChannel channel, Delivery d) throws IOException {
        String security = channel.settings().getOrDefault("smtp_security", "starttls");
        String protocol = security.equals("ssl") ? "smtps" : "smtp";
        Properties p = new Properties();
        String prefix = "mail." + protocol + ".";
        p.put(prefix + "host", channel.setting("smtp_host"));
        p.put(prefix + "port", channel.settings().getOrDefault("smtp_port", security.equals("ssl") ? "465" : "587"));
        p.put(prefix + "connectiontimeout", Long.toString(connect.toMillis()));
        p.put(prefix + "timeout", Long.toString(read.toMillis()));
        p.put(prefix + "writetimeout", Long.toString(read.toMillis()));
        String user = channel.setting("smtp_username");
        p.put(prefix + "auth", Boolean.toString(user != null));
        if (security.equals("starttls")) {
            p.put(prefix + "starttls.enable", "true");
            p.put(prefix + "starttls.required", "true");
        }
        Session session = Session.getInstance(p);
        try {
            MimeMessage message = new MimeMessage(session);
            message.setFrom(new InternetAddress(channel.setting("from")));
            message.setRecipients(Message.RecipientType.TO, InternetAddress.parse(channel.setting("to")));
            message.setSubject("[Detour] " + d.title(), StandardCharsets.UTF_8.name());
            message.setText(d.text() + "\n\nevent: " + d.event().wire() + "\nobject: " + d.object() + "\nat: "
                    + d.occurredAt() + "\n", StandardCharsets.UTF_8.name());
            message.setSentDate(Date.from(d.occurredAt()));
            try (Transport transport = session.getTransport(protocol)) {
                transport.connect(user, channel.secret("smtp_password"));
                transport.sendMessage(message, message.getAllRecipients());
            }
        } catch (MessagingException e) {
            throw new IOException("SMTP: " + e.getMessage(), e);
        }
    }
}
