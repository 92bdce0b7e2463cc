package dev.detour.adapter.metrics;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A small parser for the Prometheus text format: fails on any line that is not a comment or a sample. */
final class PrometheusParser {
    private static final Pattern SAMPLE = Pattern.compile(
            "([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{((?:[a-zA-Z_][a-zA-Z0-9_]*=\"(?:[^\"\\\\]|\\\\.)*\",?)*)\\})? "
                    + "(-?[0-9.eE+-]+|\\+Inf|-Inf|NaN)");
    private static final Pattern COMMENT = Pattern.compile("# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+");

    private PrometheusParser() {
    }

    /** Series (name plus labels exactly as written) → value. */
    static Map<String, Double> parse(String text) {
        Map<String, Double> samples = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("#")) {
                if (!COMMENT.matcher(line).matches()) {
                    throw new AssertionError("bad comment line: " + line);
                }
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            if (!m.matches()) {
                throw new AssertionError("bad sample line: " + line);
            }
            String series = m.group(1) + (m.group(2) == null ? "" : m.group(2));
            if (samples.put(series, Double.parseDouble(m.group(4).replace("+Inf", "Infinity"))) != null) {
                throw new AssertionError("duplicate series: " + series);
            }
        }
        return samples;
    }
}
