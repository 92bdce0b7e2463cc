package dev.detour.alerts;

import dev.detour.admin.ConflictException;
import dev.detour.admin.NotFoundException;
import dev.detour.core.ValidationException;
import dev.detour.core.alerts.AlertKind;
import dev.detour.core.secret.SecretMask;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * W-1 use cases behind {@code /admin/api/alerts} and the console's alerts page: channels (validated,
 * secrets sealed by the store and shown only as hints, every change audited), the test send and the
 * delivery log.
 */
public final class AlertChannels {
    public static final int DEFAULT_SUPPRESS_SECONDS = 600;
    static final int MAX_SUPPRESS_SECONDS = 7 * 24 * 3600;
    private final AlertStore store;
    private final AlertDispatcher dispatcher;
    private final Clock clock;
    private final TargetCheck targets;

    public AlertChannels(AlertStore store, AlertDispatcher dispatcher, Clock clock, TargetCheck targets) {
        this.store = store;
        this.dispatcher = dispatcher;
        this.clock = clock;
        this.targets = targets;
    }

    /** The same use cases on another store: W-2's import writes channels on its own unit of work. */
    public AlertChannels on(AlertStore other) {
        return new AlertChannels(other, dispatcher, clock, targets);
    }

    public List<AlertChannel> list() {
        return store.channels();
    }

    public AlertChannel get(long id) {
        return store.channel(id).orElseThrow(() -> new NotFoundException("alert channel " + id + " does not exist"));
    }

    public AlertChannel create(String actor, ChannelDraft draft) {
        return store.create(unique(merged(blank(draft), draft)), actor, clock.instant());
    }

    /** W-2: the channel {@code draft} makes over {@code base} (null: a new one), checked; nothing is stored. */
    public AlertChannel checked(AlertChannel base, ChannelDraft draft) {
        return merged(base == null ? blank(draft) : base, draft);
    }

    private static AlertChannel blank(ChannelDraft draft) {
        if (draft.name() == null || draft.kind() == null) {
            throw new ValidationException("validation." + (draft.name() == null ? "name" : "kind"),
                    draft.name() == null ? "name" : "kind", "a channel needs a name and a kind");
        }
        return new AlertChannel(0, draft.name(), ChannelKind.fromWire(draft.kind()), true, Set.of(),
                Duration.ofSeconds(DEFAULT_SUPPRESS_SECONDS), Map.of(), Map.of(), Map.of());
    }

    public AlertChannel update(String actor, long id, ChannelDraft draft) {
        AlertChannel before = get(id);
        return store.update(before, unique(merged(before, draft)), actor, clock.instant());
    }

    public void delete(String actor, long id) {
        store.delete(get(id), actor, clock.instant());
    }

    /** Sends a test alert to the channel now and returns the logged delivery (sent or failed). */
    public Delivery test(long id) {
        return dispatcher.test(get(id), clock.instant());
    }

    public List<Delivery> deliveries(int offset, int limit) {
        return store.deliveries(Math.max(0, offset), Math.max(1, Math.min(500, limit)));
    }

    public long deliveryCount() {
        return store.deliveryCount();
    }

    private AlertChannel unique(AlertChannel channel) {
        if (store.channels().stream().anyMatch(c -> c.id() != channel.id() && c.name().equals(channel.name()))) {
            throw new ConflictException(ConflictException.DUPLICATE_NAME, "name", "an alert channel named "
                    + channel.name() + " exists");
        }
        return channel;
    }

    private AlertChannel merged(AlertChannel base, ChannelDraft draft) {
        String name = draft.name() == null ? base.name() : draft.name().trim();
        if (name.isEmpty() || name.length() > 100) {
            throw new ValidationException("validation.name", "name", "name must have 1 to 100 characters");
        }
        ChannelKind kind = draft.kind() == null ? base.kind() : ChannelKind.fromWire(draft.kind());
        Set<AlertKind> events = draft.events() == null ? base.events() : events(draft.events());
        int suppress = draft.suppressSeconds() == null ? (int) base.suppress().toSeconds() : draft.suppressSeconds();
        if (suppress < 0 || suppress > MAX_SUPPRESS_SECONDS) {
            throw new ValidationException("validation.suppress_seconds", "suppress_seconds",
                    "suppress_seconds must be 0 to " + MAX_SUPPRESS_SECONDS);
        }
        Map<String, String> settings = new LinkedHashMap<>(kind == base.kind() ? base.settings() : Map.of());
        Map<String, String> secrets = new LinkedHashMap<>(kind == base.kind() ? base.secrets() : Map.of());
        Map<String, String> fields = draft.fields() == null ? Map.of() : draft.fields();
        fields.forEach((field, value) -> {
            Map<String, String> target = kind.secrets().contains(field) ? secrets
                    : kind.settings().contains(field) ? settings : null;
            if (target == null) {
                throw new ValidationException("validation." + field, field, field + " is not a field of a "
                        + kind.wire() + " channel");
            }
            if (value == null || value.isBlank()) {
                target.remove(field);
            } else {
                target.put(field, value.trim());
            }
        });
        for (String field : kind.required()) {
            if (!settings.containsKey(field) && !secrets.containsKey(field)) {
                throw new ValidationException("validation." + field, field, "a " + kind.wire() + " channel needs "
                        + field);
            }
        }
        check(kind, settings, secrets);
        Map<String, String> hints = new LinkedHashMap<>();
        secrets.forEach((field, value) -> hints.put(field, hint(value)));
        boolean enabled = draft.enabled() == null ? base.enabled() : draft.enabled();
        return new AlertChannel(base.id(), name, kind, enabled, events, Duration.ofSeconds(suppress),
                Map.copyOf(settings), Map.copyOf(secrets), Map.copyOf(hints));
    }

    /** X-5's one masking format for every secret of a channel: "…" and the last four characters. */
    static String hint(String secret) {
        return secret.length() < 12 ? SecretMask.hint(secret) : "…" + secret.substring(secret.length() - 4);
    }

    private static Set<AlertKind> events(List<String> wires) {
        Set<AlertKind> events = EnumSet.noneOf(AlertKind.class);
        for (String wire : wires) {
            AlertKind kind = AlertKind.fromWire(wire);
            if (kind == AlertKind.TEST) {
                throw new ValidationException("validation.events", "events", "test is not an event to subscribe to");
            }
            events.add(kind);
        }
        return Set.copyOf(events);
    }

    private void check(ChannelKind kind, Map<String, String> settings, Map<String, String> secrets) {
        if (secrets.containsKey("url")) {
            httpUrl("url", secrets.get("url"), true);
        }
        if (settings.containsKey("api_base")) {
            httpUrl("api_base", settings.get("api_base"), false);
        }
        if (kind == ChannelKind.EMAIL) {
            targets.check("smtp_host", settings.get("smtp_host"));
            String port = settings.getOrDefault("smtp_port", "587");
            if (!port.matches("\\d{1,5}") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65535) {
                throw new ValidationException("validation.smtp_port", "smtp_port", "smtp_port must be 1 to 65535");
            }
            String security = settings.getOrDefault("smtp_security", "starttls");
            if (!List.of("none", "starttls", "ssl").contains(security)) {
                throw new ValidationException("validation.smtp_security", "smtp_security",
                        "smtp_security must be none, starttls or ssl");
            }
            for (String field : List.of("from", "to")) {
                for (String address : settings.get(field).split(",")) {
                    if (!address.trim().matches("[^@\\s]+@[^@\\s]+")) {
                        throw new ValidationException("validation." + field, field, field
                                + " must be e-mail address(es), comma-separated");
                    }
                }
            }
        }
    }

    /**
     * An http(s) URL with a host the server may reach ({@link TargetCheck}). A sealed field (the webhook
     * URL) may carry user:password (it is shown back only as "…" and four characters); a plain setting
     * (Telegram's api_base, shown as entered) may not.
     */
    private void httpUrl(String field, String value, boolean sealed) {
        URI uri;
        try {
            uri = URI.create(value);
        } catch (IllegalArgumentException e) {
            uri = null;
        }
        if (uri == null || !("http".equals(uri.getScheme()) || "https".equals(uri.getScheme()))
                || uri.getHost() == null) {
            throw new ValidationException("validation." + field, field, field + " must be an http(s) URL");
        }
        if (!sealed && uri.getRawUserInfo() != null) {
            throw new ValidationException("validation." + field + ".credentials", field, field
                    + " must not carry user:password (it is shown back as entered)");
        }
        targets.check(field, uri.getHost());
    }
}
