package dev.detour.admin.usage;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * U-8: a server-rendered bar chart over time with axes: a y axis from 0 to a round maximum with three labelled
 * ticks in the chart's unit, and an x axis with at most {@value #X_TICKS} time ticks (HH:mm for buckets under a
 * day, MM-dd otherwise). Labels are written in UTC, what a reader without scripts sees; each time tick and bar also
 * carries its instant, and local-time.js rewrites clock ticks in the viewer's zone ({@code timeFormat} "clock").
 * Day buckets are UTC days, so their labels stay UTC dates ("day"). Geometry in SVG user units; the template only
 * draws it (fragments/usage.html).
 */
public record TimeChart(int width, int height, Unit unit, long top, List<SvgChart.Bar> bars, List<Tick> yTicks,
        List<Tick> xTicks, double plotLeft, double plotBottom, String timeFormat, List<String> barTimes) {

    /** What a bar counts; {@code format} writes an axis label (money in micros of the site's unit, shown in $). */
    public enum Unit {
        REQUESTS, TOKENS, MONEY, MILLISECONDS;

        public String format(long value) {
            return switch (this) {
                case MONEY -> money(value);
                case TOKENS -> compact(value);
                case MILLISECONDS -> compact(value) + " ms";
                case REQUESTS -> compact(value);
            };
        }

        /** The least top of the y axis, so an idle chart still has three distinct ticks (0, 1, 2 or $0 … $0.01). */
        long leastTop() {
            return this == MONEY ? 10_000 : 2;
        }

        /** The messages key of the unit's name ({@code chart.unit.tokens}). */
        public String key() {
            return "chart.unit." + name().toLowerCase(Locale.ROOT);
        }
    }

    /** A tick at {@code at} (x or y in user units) with its label; {@code datetime}: a time tick's instant (ISO). */
    public record Tick(double at, String label, String datetime) {
        public Tick(double at, String label) {
            this(at, label, null);
        }
    }

    public static final int WIDTH = 480;
    public static final int HEIGHT = 160;
    static final int X_TICKS = 6;
    private static final double LEFT = 60;
    private static final double RIGHT = 8;
    private static final double TOP = 8;
    private static final double BOTTOM = 24;

    /** One bar per bucket: {@code values[i]} counts [start + i·step, start + (i+1)·step). */
    public static TimeChart of(long[] values, Instant start, Duration step, Unit unit) {
        long max = 0;
        for (long v : values) {
            max = Math.max(max, v);
        }
        long top = Math.max(unit.leastTop(), roundUp(max));
        double plotWidth = WIDTH - LEFT - RIGHT;
        double plotHeight = HEIGHT - TOP - BOTTOM;
        double bottom = TOP + plotHeight;
        double slot = values.length == 0 ? plotWidth : plotWidth / values.length;
        boolean clock = step.compareTo(Duration.ofDays(1)) < 0;
        DateTimeFormatter format = DateTimeFormatter.ofPattern(clock ? "HH:mm" : "MM-dd").withZone(ZoneOffset.UTC);
        List<SvgChart.Bar> bars = new ArrayList<>(values.length);
        List<String> barTimes = new ArrayList<>(values.length);
        for (int i = 0; i < values.length; i++) {
            barTimes.add(start.plus(step.multipliedBy(i)).toString());
            double h = Math.max(values[i] > 0 ? 1 : 0, plotHeight * values[i] / top);
            bars.add(new SvgChart.Bar(round(LEFT + i * slot + slot * 0.1), round(bottom - h), round(Math.max(1, slot * 0.8)),
                    round(h), values[i], format.format(start.plus(step.multipliedBy(i))) + ": " + unit.format(values[i])));
        }
        List<Tick> yTicks = List.of(new Tick(round(bottom), unit.format(0)),
                // the middle tick sits at its own value: half of 5 requests is labelled 2, at 2/5 of the height
                new Tick(round(bottom - plotHeight * (top / 2) / top), unit.format(top / 2)),
                new Tick(round(TOP), unit.format(top)));
        List<Tick> xTicks = new ArrayList<>();
        int every = Math.max(1, (int) Math.ceil(values.length / (double) X_TICKS));
        for (int i = 0; i < values.length; i += every) {
            Instant at = start.plus(step.multipliedBy(i));
            xTicks.add(new Tick(round(LEFT + i * slot), format.format(at), at.toString()));
        }
        return new TimeChart(WIDTH, HEIGHT, unit, top, List.copyOf(bars), yTicks, List.copyOf(xTicks), LEFT,
                round(bottom), clock ? "clock" : "day", List.copyOf(barTimes));
    }

    /** The smallest 1, 2 or 5 × 10ⁿ at or above {@code max} (at least 1), so the axis reads in round numbers. */
    static long roundUp(long max) {
        long magnitude = 1;
        while (true) {
            for (long m : new long[] {1, 2, 5}) {
                if (m * magnitude >= max) {
                    return m * magnitude;
                }
            }
            magnitude *= 10;
        }
    }

    /** 950, 1.5k, 12k, 3.2M: an axis label short enough to sit left of the plot. */
    static String compact(long value) {
        if (Math.abs(value) < 1_000) {
            return Long.toString(value);
        }
        double v = value;
        String[] suffixes = {"k", "M", "G"};
        int i = -1;
        while (Math.abs(v) >= 1_000 && i < suffixes.length - 1) {
            v /= 1_000;
            i++;
        }
        String digits = Math.abs(v) < 10 && v != Math.rint(v) ? String.format(Locale.ROOT, "%.1f", v)
                : Long.toString(Math.round(v));
        return digits + suffixes[i];
    }

    /** Micros of the site's unit in dollars, as few places as the amount needs (an axis, not a bill). */
    static String money(long micros) {
        double dollars = micros / 1_000_000.0;
        if (micros == 0 || Math.abs(dollars) >= 100) {
            return "$" + Math.round(dollars);
        }
        String text = String.format(Locale.ROOT, Math.abs(dollars) >= 1 ? "%.2f" : "%.6f", dollars);
        text = text.contains(".") ? text.replaceAll("0+$", "").replaceAll("\\.$", "") : text;
        return "$" + text;
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
