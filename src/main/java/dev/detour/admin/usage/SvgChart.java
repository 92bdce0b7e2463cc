package dev.detour.admin.usage;

import java.util.ArrayList;
import java.util.List;

/** A server-rendered bar chart (U-5: no client-side chart library): bar geometry in SVG user units. */
public record SvgChart(int width, int height, long max, List<Bar> bars) {
    public record Bar(double x, double y, double w, double h, long value, String label) {
    }

    public static final int WIDTH = 600;
    public static final int HEIGHT = 100;

    /** One bar per value, scaled to the largest; labels are the bars' tooltips. */
    public static SvgChart bars(long[] values, List<String> labels) {
        long max = 0;
        for (long v : values) {
            max = Math.max(max, v);
        }
        double slot = values.length == 0 ? WIDTH : (double) WIDTH / values.length;
        List<Bar> bars = new ArrayList<>(values.length);
        for (int i = 0; i < values.length; i++) {
            double h = max == 0 ? 0 : Math.max(values[i] > 0 ? 1 : 0, HEIGHT * (double) values[i] / max);
            bars.add(new Bar(round(i * slot), round(HEIGHT - h), round(Math.max(1, slot * 0.8)), round(h), values[i],
                    labels.get(i)));
        }
        return new SvgChart(WIDTH, HEIGHT, max, List.copyOf(bars));
    }

    private static double round(double v) {
        return Math.round(v * 10) / 10.0;
    }
}
