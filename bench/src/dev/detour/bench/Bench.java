package dev.detour.bench;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Entry point of the bench client (run by bench/run.sh; needs JDK 21+ for virtual threads).
 * <pre>
 *   ports N                                   print N free loopback ports
 *   latency MODEL WARMUP ROUNDS LEG...        alternating concurrency-1 latency
 *   streams WARMUP ROUNDS LEG...              alternating concurrency-1 TTFT and frame gaps
 *   streams-messages WARMUP ROUNDS LEG...     the same with a Messages request at /v1/messages
 *   body KIB MODEL                            print a Chat request of about KIB KiB (an agent's long context)
 *   hold CLIENTS RAMP_MS HOLD_MS LEG          concurrent streams held
 *   report RESULTS_FILE MARKDOWN_FILE         write the Markdown report
 * </pre>
 * A LEG is {@code name=port[=bearer[=model[=headers]]]} ({@link Target#parse}). Results go to stdout as
 * key=value lines.
 */
public final class Bench {
    private Bench() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            throw new IllegalArgumentException("usage: Bench ports|latency|streams|streams-messages|hold|body|report ...");
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0]) {
            case "ports" -> printFreePorts(Integer.parseInt(rest[0]));
            case "latency" -> new LatencyBench(legs(rest, 3), rest[0])
                    .run(Integer.parseInt(rest[1]), Integer.parseInt(rest[2]));
            case "streams" -> new StreamBench(legs(rest, 2), StreamCheck.Dialect.CHAT)
                    .run(Integer.parseInt(rest[0]), Integer.parseInt(rest[1]));
            case "streams-messages" -> new StreamBench(legs(rest, 2), StreamCheck.Dialect.MESSAGES)
                    .run(Integer.parseInt(rest[0]), Integer.parseInt(rest[1]));
            case "body" -> System.out.print(Payloads.longContext(rest[1], Integer.parseInt(rest[0]) * 1024));
            case "hold" -> new HoldBench(Target.parse(rest[3]))
                    .run(Integer.parseInt(rest[0]), Long.parseLong(rest[1]), Long.parseLong(rest[2]));
            case "report" -> writeReport(Path.of(rest[0]), Path.of(rest[1]));
            default -> throw new IllegalArgumentException("unknown command " + args[0]);
        }
    }

    private static List<Target> legs(String[] args, int from) {
        List<Target> legs = new ArrayList<>();
        for (int i = from; i < args.length; i++) {
            legs.add(Target.parse(args[i]));
        }
        return legs;
    }

    private static void printFreePorts(int count) throws IOException {
        List<ServerSocket> sockets = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sockets.add(new ServerSocket(0));
        }
        for (ServerSocket socket : sockets) {
            System.out.println(socket.getLocalPort());
            socket.close();
        }
    }

    private static void writeReport(Path results, Path markdown) throws IOException {
        String report = new Report(results).render();
        Files.writeString(markdown, report, StandardCharsets.UTF_8);
        System.out.print(report);
    }
}
