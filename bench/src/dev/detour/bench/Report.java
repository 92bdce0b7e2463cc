package dev.detour.bench;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Properties;

/** Turns the collected {@code key=value} results into the Markdown tables of bench/results.md. */
final class Report {
    private static final String[] LEGS = {"direct", "nginx", "detour"};
    /** N-8: a round's requests over its time plus the writer's catch-up after it (run.sh, writer_catch_up). */
    private static final String STORED = "Throughput with every request event stored (req/s; requests ÷ (round +"
            + " writer catch-up), median round)";
    private final Properties p = new Properties();
    private final StringBuilder md = new StringBuilder(8192);

    Report(Path results) throws IOException {
        try (Reader reader = Files.newBufferedReader(results, StandardCharsets.UTF_8)) {
            p.load(reader);
        }
    }

    String render() {
        header();
        buffered();
        peers();
        bodySizes();
        poolSize();
        bridged();
        streaming();
        held();
        footer();
        return md.toString();
    }

    private void header() {
        md.append("# Detour benchmark results\n\n");
        line("Run", get("meta.date") + " on commit `" + get("meta.commit") + "`");
        line("Machine", get("meta.cpu") + ", " + get("meta.cores") + " cores, load average at start "
                + get("meta.load_start") + ", at end " + get("meta.load_end"));
        line("Detour JVM", get("meta.jvm_detour") + " — flags `" + get("meta.detour_flags") + "`");
        line("Bench client JVM", get("meta.jvm_client"));
        line("Tools", get("meta.nginx") + "; " + get("meta.wrk"));
        line("Detour leg", get("meta.detour_status"));
        line("Second-wave features on the Detour legs (N-8)", get("meta.features"));
        line("Portkey gateway", get("meta.portkey_status"));
        line("Bare forwarder (calibration)", get("meta.bare_status"));
        md.append('\n');
    }

    private void line(String name, String value) {
        md.append("- **").append(name).append(":** ").append(value).append('\n');
    }

    private void buffered() {
        md.append("## Buffered chat completions (upstream: nginx returning a fixed JSON)\n\n");
        tableHead();
        latencyRow("Latency p50, concurrency 1 (ms)", "lat", "p50_us", "");
        latencyRow("Latency p99, concurrency 1 (ms)", "lat", "p99_us", "");
        latencyRow("Latency p99.9, concurrency 1 (ms)", "lat", "p999_us", "");
        addedRow("Added latency p50 vs direct (ms)", "lat", "p50_us", "≤ 0.3 (N-1)");
        addedRow("Added latency p99 vs direct (ms)", "lat", "p99_us", "≤ 1 (N-1)");
        countRow("Requests measured / errors", "lat.%s.n", "lat.%s.errors");
        ratioRow("Throughput, concurrency 16 (req/s; median round)", "tput.%s.rps", "≥ 25 % of nginx (N-1)");
        row("Throughput rounds, in the order run (req/s)", get("tput.direct.rounds"), get("tput.nginx.rounds"),
                get("tput.detour.rounds"), "", "", "");
        row("Event writer's catch-up after each round (ms)", "", "", get("tput.detour.catchup_ms"), "", "", "");
        ratioRow(STORED, "tput.%s.stored_rps", "≥ 0.40× nginx (N-8)");
        ratioRow("wrk latency p99 at concurrency 16 (ms)", "tput.%s.p99_ms", "");
        countRow("wrk requests / non-2xx or socket errors", "tput.%s.requests", "tput.%s.errors");
        row("Unmeasured warm-up before the throughput run (s; until steady)", get("tput.direct.warmup_s"),
                get("tput.nginx.warmup_s"), get("tput.detour.warmup_s"), "", "", "");
        md.append('\n');
    }

    /** Item 6: the peers that run here, in the same run: nginx, the Portkey gateway, Detour. */
    private void peers() {
        md.append("## Peers (buffered chat completion; same upstream)\n\n");
        md.append("| figure | nginx proxy_pass | bare Jetty + upstream client | Portkey gateway | Detour | Detour/bare"
                + " | Detour/Portkey | Detour/nginx |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        peerRow("Throughput, concurrency 16 (req/s; median round)", "tput.%s.rps", 0);
        peerRow("wrk latency p50 at concurrency 16 (ms)", "tput.%s.p50_ms", 1);
        peerRow("wrk latency p99 at concurrency 16 (ms)", "tput.%s.p99_ms", 1);
        peerRow("Latency p50, concurrency 1 (ms)", "lat.%s.p50_us", 1000);
        peerRow("Latency p99, concurrency 1 (ms)", "lat.%s.p99_us", 1000);
        md.append('\n');
    }

    /** {@code toMillis}: 0 for a count (printed plain), else what divides the value into milliseconds. */
    private void peerRow(String label, String keyPattern, double toMillis) {
        String[] legs = {"nginx", "bare", "portkey", "detour"};
        double[] v = new double[legs.length];
        String[] cells = new String[legs.length];
        for (int i = 0; i < legs.length; i++) {
            v[i] = num(String.format(keyPattern, legs[i])) / (toMillis == 0 ? 1 : toMillis);
            cells[i] = toMillis == 0 ? plain(v[i]) : ms(v[i]);
        }
        row(label, cells[0], cells[1], cells[2], cells[3], ratio(v[3], v[1]), ratio(v[3], v[2]), ratio(v[3], v[0]));
    }

    /** N-9: an agent's long context (32 KiB, 256 KiB of realistic turns) beside the small request. */
    private void bodySizes() {
        md.append("## Request body size (buffered chat completion at concurrency 16, req/s; median round)\n\n");
        md.append("| body | direct | nginx proxy_pass | Detour | Detour/nginx | Detour, events stored | stored/nginx"
                + " | wrk p99 nginx / Detour (ms) | target |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---|\n");
        String[][] sizes = {{"", "small (" + get("meta.body.small_bytes") + " B)"},
            {"-32k", "32 KiB (" + get("meta.body.32k_bytes") + " B)"}, {"-256k", "256 KiB (" + get("meta.body.256k_bytes") + " B)"}};
        for (String[] size : sizes) {
            double direct = num("tput.direct" + size[0] + ".rps");
            double nginx = num("tput.nginx" + size[0] + ".rps");
            double detour = num("tput.detour" + size[0] + ".rps");
            double stored = num("tput.detour" + size[0] + ".stored_rps");
            row(size[1], plain(direct), plain(nginx), plain(detour), ratio(detour, nginx), plain(stored),
                    ratio(stored, nginx),
                    get("tput.nginx" + size[0] + ".p99_ms") + " / " + get("tput.detour" + size[0] + ".p99_ms"),
                    size[0].isEmpty() ? "stored ≥ 0.40× (N-8)" : "ratio reported (N-9)");
        }
        md.append('\n');
    }

    /** N-10: the same request with 200 accounts serving the model instead of 4. */
    private void poolSize() {
        md.append("## Pool size (Detour, buffered chat completion at concurrency 16; each pool its own group and key)\n\n");
        String pool = get("meta.pool_accounts");
        md.append("| figure | 4 accounts | ").append(pool).append(" accounts (").append(get("meta.pool_serving"))
                .append(" serve the model) | ").append(pool).append("/4 | target |\n|---|---:|---:|---:|---|\n");
        double four = num("tput.detour.rps");
        double wide = num("tput.detour-pool.rps");
        row("Throughput (req/s; median round)", plain(four), plain(wide), ratio(wide, four), "");
        double fourStored = num("tput.detour.stored_rps");
        double wideStored = num("tput.detour-pool.stored_rps");
        row(STORED, plain(fourStored), plain(wideStored), ratio(wideStored, fourStored), "≥ 0.9× (N-10)");
        row("Event writer's catch-up after each round (ms)", get("tput.detour.catchup_ms"),
                get("tput.detour-pool.catchup_ms"), "", "");
        row("wrk latency p50 (ms)", get("tput.detour.p50_ms"), get("tput.detour-pool.p50_ms"), "", "");
        row("wrk latency p99 (ms)", get("tput.detour.p99_ms"), get("tput.detour-pool.p99_ms"), "", "");
        row("wrk requests / errors", get("tput.detour.requests") + " / " + get("tput.detour.errors"),
                get("tput.detour-pool.requests") + " / " + get("tput.detour-pool.errors"), "", "0 errors");
        md.append('\n');
    }

    /**
     * N-9 / B-7: a Messages request served natively (an account speaking Messages) and through the bridge
     * (a Chat-only account; the same upstream bytes in Chat), in the same run.
     */
    private void bridged() {
        md.append("## Bridged vs native (a Messages request; native: an account speaking Messages, bridged: a "
                + "Chat-only account)\n\n");
        md.append("| figure | upstream direct | Detour native | Detour bridged | bridged/native | bridged − native (ms) "
                + "| target |\n|---|---:|---:|---:|---:|---:|---|\n");
        double nativeRps = num("tput.detour-msg.rps");
        double bridgedRps = num("tput.detour-msg-bridged.rps");
        row("Throughput, concurrency 16 (req/s; median round)", "", plain(nativeRps), plain(bridgedRps),
                ratio(bridgedRps, nativeRps), "", "");
        double nativeStored = num("tput.detour-msg.stored_rps");
        double bridgedStored = num("tput.detour-msg-bridged.stored_rps");
        row(STORED, "", plain(nativeStored), plain(bridgedStored), ratio(bridgedStored, nativeStored), "",
                "≥ 0.8× (N-9, B-7)");
        row("wrk latency p99 at concurrency 16 (ms)", "", get("tput.detour-msg.p99_ms"),
                get("tput.detour-msg-bridged.p99_ms"), "", "", "");
        for (String[] stat : new String[][] {{"ttft", "p50_us", "Time to first frame p50, concurrency 1 (ms)", "≤ 1 (N-9)"},
            {"ttft", "p99_us", "Time to first frame p99, concurrency 1 (ms)", ""},
            {"gap", "p99_us", "Gap between frames p99 (ms)", ""}}) {
            double direct = num(stat[0] + ".direct-msg." + stat[1]) / 1000.0;
            double nat = num(stat[0] + ".detour-msg." + stat[1]) / 1000.0;
            double bri = num(stat[0] + ".detour-msg-bridged." + stat[1]) / 1000.0;
            row(stat[2], ms(direct), ms(nat), ms(bri), "", ms(bri - nat), stat[3]);
        }
        row("Streams measured / lost frames", get("ttft.direct-msg.n") + " / " + get("stream.direct-msg.lost_frames"),
                get("ttft.detour-msg.n") + " / " + get("stream.detour-msg.lost_frames"),
                get("ttft.detour-msg-bridged.n") + " / " + get("stream.detour-msg-bridged.lost_frames"), "", "", "0 lost");
        md.append('\n');
    }

    private void streaming() {
        md.append("## Streaming at concurrency 1 (fake upstream: role frame, 64 deltas 20 ms apart, [DONE])\n\n");
        tableHead();
        latencyRow("Time to first frame p50 (ms)", "ttft", "p50_us", "");
        latencyRow("Time to first frame p99 (ms)", "ttft", "p99_us", "");
        addedRow("Added TTFT p50 vs direct (ms)", "ttft", "p50_us", "≤ 1 (N-1)");
        addedRow("Added TTFT p99 vs direct (ms)", "ttft", "p99_us", "≤ 1 (N-1)");
        latencyRow("Gap between frames p50 (ms)", "gap", "p50_us", "20 nominal");
        latencyRow("Gap between frames p99 (ms)", "gap", "p99_us", "");
        addedRow("Added gap p50 vs direct (ms)", "gap", "p50_us", "≈ 0 (N-1)");
        addedRow("Added gap p99 vs direct (ms)", "gap", "p99_us", "≈ 0 (N-1)");
        countRow("Streams measured / lost frames", "ttft.%s.n", "stream.%s.lost_frames");
        md.append('\n');
    }

    private void held() {
        md.append("## Concurrent streams held (").append(get("hold.direct.clients"))
                .append(" clients, each runs stream after stream for the hold window)\n\n");
        tableHead();
        // N-3 asks for 1,000 streams held without a lost frame; how many of them receive frames at once is
        // bounded by the box's CPU (client, upstream and proxy share it), so nginx in the same run is the bar
        ratioRow("Streams receiving frames during the hold, median", "hold.%s.median_receiving", "≈ nginx (CPU-bound)");
        ratioRow("Streams receiving frames during the hold, fewest", "hold.%s.min_receiving", "");
        ratioRow("Streams in flight (sent, not finished), median", "hold.%s.median_in_flight", "1000 (N-3)");
        ratioRow("Streams in flight (sent, not finished), fewest", "hold.%s.min_in_flight", "");
        ratioRow("Most streams in flight", "hold.%s.peak_in_flight", "");
        ratioRow("Streams completed (each verified frame by frame)", "hold.%s.streams_completed", "");
        countRow("Failed streams / lost frames", "hold.%s.failed_streams", "hold.%s.lost_frames");
        latencyRow("Time to first frame p50 under load (ms)", "hold", "ttft.p50_us", "");
        latencyRow("Time to first frame p99 under load (ms)", "hold", "ttft.p99_us", "");
        latencyRow("Gap between frames p99 under load (ms)", "hold", "gap.p99_us", "");
        latencyRow("Gap between frames max under load (ms)", "hold", "gap.max_us", "");
        row("Unmeasured warm-up holds of " + get("meta.hold_warmup_ms") + " ms before the measured one (until steady)",
                get("hold.direct.warmup_holds"), get("hold.nginx.warmup_holds"), get("hold.detour.warmup_holds"), "", "", "");
        md.append('\n');
        md.append("Detour memory (JVM `").append(get("meta.detour_flags")).append("`):\n\n");
        md.append("| heap used, idle after GC (MiB) | heap used, peak during hold incl. garbage (MiB) "
                + "| heap used after hold, after GC (MiB) | heap max (MiB) | RSS peak, JVM (MiB) "
                + "| RSS peak, JVM + embedded MariaDB (MiB) |\n");
        md.append("|---:|---:|---:|---:|---:|---:|\n");
        md.append("| ").append(get("mem.detour.heap_idle_mb")).append(" | ").append(get("mem.detour.heap_peak_mb"))
                .append(" | ").append(get("mem.detour.heap_after_mb")).append(" | ").append(get("mem.detour.heap_max_mb"))
                .append(" | ").append(get("mem.detour.rss_peak_mb"))
                .append(" | ").append(get("mem.detour.rss_group_peak_mb")).append(" |\n\n");
    }

    private void footer() {
        md.append("Latency figures are whole round trips measured by the bench client (raw keep-alive socket, "
                + "HdrHistogram); added = Detour (or nginx) percentile minus the direct percentile from the same "
                + "alternating run. Throughput is wrk `-t2 -c16`. See bench/README.md for what each figure means.\n");
    }

    private void tableHead() {
        md.append("| figure | direct | nginx proxy_pass | Detour | Detour/direct | Detour/nginx | target |\n");
        md.append("|---|---:|---:|---:|---:|---:|---|\n");
    }

    private void latencyRow(String label, String family, String stat, String target) {
        double[] v = new double[3];
        for (int i = 0; i < 3; i++) {
            v[i] = num(family + "." + LEGS[i] + "." + stat) / 1000.0;
        }
        row(label, ms(v[0]), ms(v[1]), ms(v[2]), ratio(v[2], v[0]), ratio(v[2], v[1]), target);
    }

    private void addedRow(String label, String family, String stat, String target) {
        double direct = num(family + ".direct." + stat) / 1000.0;
        double nginx = num(family + ".nginx." + stat) / 1000.0 - direct;
        double detour = num(family + ".detour." + stat) / 1000.0 - direct;
        row(label, "0", ms(nginx), ms(detour), "", "", target);
    }

    private void ratioRow(String label, String keyPattern, String target) {
        double[] v = new double[3];
        for (int i = 0; i < 3; i++) {
            v[i] = num(String.format(keyPattern, LEGS[i]));
        }
        row(label, plain(v[0]), plain(v[1]), plain(v[2]), ratio(v[2], v[0]), ratio(v[2], v[1]), target);
    }

    private void countRow(String label, String firstPattern, String secondPattern) {
        String[] cells = new String[3];
        for (int i = 0; i < 3; i++) {
            cells[i] = get(String.format(firstPattern, LEGS[i])) + " / " + get(String.format(secondPattern, LEGS[i]));
        }
        row(label, cells[0], cells[1], cells[2], "", "", secondPattern.contains("lost") ? "0 lost" : "0 errors");
    }

    private void row(String label, String... cells) {
        md.append("| ").append(label);
        for (String cell : cells) {
            md.append(" | ").append(cell);
        }
        md.append(" |\n");
    }

    private String get(String key) {
        String value = p.getProperty(key);
        return value == null || value.isBlank() ? "—" : value.trim();
    }

    private double num(String key) {
        try {
            return Double.parseDouble(p.getProperty(key, "").trim());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    private static String ms(double value) {
        return Double.isNaN(value) ? "—" : String.format(Locale.ROOT, "%.3f", value);
    }

    private static String plain(double value) {
        if (Double.isNaN(value)) {
            return "—";
        }
        return value == Math.rint(value) ? String.format(Locale.ROOT, "%.0f", value)
                : String.format(Locale.ROOT, "%.2f", value);
    }

    private static String ratio(double a, double b) {
        return Double.isNaN(a) || Double.isNaN(b) || b == 0 ? "—" : String.format(Locale.ROOT, "%.2f×", a / b);
    }
}
