package dev.detour.adapter.web;

import java.util.Locale;

/**
 * Spend as a person reads it. Prices and spend are kept in micros of the site's currency unit, which the
 * prices are entered in (US dollars for every upstream Detour knows), so pages show {@code $}: cents for
 * amounts of a dollar or more, four places below that (a day of light use costs fractions of a cent).
 */
public final class Money {
    /** For templates: {@code ${money.of(e.costMicros)}} (Thymeleaf calls no static methods). */
    static final Money SHOWN = new Money();

    private Money() {
    }

    public String of(long micros) {
        return format(micros);
    }

    static String format(long micros) {
        double amount = micros / 1_000_000.0;
        String sign = amount < 0 ? "-" : "";
        double abs = Math.abs(amount);
        return sign + "$" + String.format(Locale.ROOT, abs >= 1 || abs == 0 ? "%,.2f" : "%.4f", abs);
    }
}
