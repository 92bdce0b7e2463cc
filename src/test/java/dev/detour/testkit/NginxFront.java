package dev.detour.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * G-1: Debian's nginx round-robin in front of several Detour instances, with the site of docs/operations.md
 * §5 (its proxy settings; plain http on a loopback port instead of TLS). Its own prefix folder, config, pid
 * and logs; {@link #close()} stops it.
 */
public final class NginxFront implements AutoCloseable {
    private static final Path NGINX = Path.of("/usr/sbin/nginx");
    private final Process process;
    private final int port;

    private NginxFront(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /** Starts nginx under {@code target/<name>} in front of the instances, and waits until it accepts. */
    public static NginxFront start(String name, List<DetourProcess> instances) {
        GaleraCluster.assumeGalera();
        Path dir = Path.of("target", name).toAbsolutePath();
        int port = freePort();
        String servers = instances.stream().map(i -> "        server 127.0.0.1:" + i.port() + ";")
                .collect(Collectors.joining("\n"));
        String conf = """
                worker_processes 1;
                daemon off;
                pid %1$s/nginx.pid;
                error_log %1$s/error.log;
                events { worker_connections 1024; }
                http {
                    log_format timed '$remote_addr [$time_iso8601] "$request" $status $body_bytes_sent'
                                     ' rt=$request_time upstream=$upstream_addr us=$upstream_status'
                                     ' urt=$upstream_response_time';
                    access_log %1$s/access.log timed;
                    client_body_temp_path %1$s/tmp/body;
                    proxy_temp_path %1$s/tmp/proxy;
                    fastcgi_temp_path %1$s/tmp/fastcgi;
                    uwsgi_temp_path %1$s/tmp/uwsgi;
                    scgi_temp_path %1$s/tmp/scgi;
                    upstream detour {
                %2$s
                        keepalive 64;
                    }
                    server {
                        listen 127.0.0.1:%3$d;
                        client_max_body_size 32m;
                        underscores_in_headers on;
                        location / {
                            proxy_pass http://detour;
                            proxy_http_version 1.1;
                            proxy_set_header Connection "";
                            proxy_set_header Host $host;
                            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                            proxy_set_header X-Forwarded-Proto $scheme;
                            proxy_buffering off;
                            proxy_cache off;
                            proxy_request_buffering off;
                            proxy_read_timeout 600s;
                            proxy_send_timeout 600s;
                            proxy_connect_timeout 10s;
                        }
                    }
                }
                """.formatted(dir, servers, port);
        try {
            Files.createDirectories(dir.resolve("tmp"));
            dir.resolve("tmp").toFile().setWritable(true, false); // workers run as nobody when started by root
            Path file = dir.resolve("nginx.conf");
            Files.writeString(file, conf);
            Process process = new ProcessBuilder(NGINX.toString(), "-p", dir.toString(), "-c", file.toString())
                    .redirectErrorStream(true).redirectOutput(dir.resolve("stdout.log").toFile()).start();
            NginxFront front = new NginxFront(process, port);
            front.awaitAccepting();
            return front;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code http://127.0.0.1:<port>} */
    public String url() {
        return "http://127.0.0.1:" + port;
    }

    /** Polls until nginx accepts (Gateway.await's 30 s hang guard); fails at once if nginx exited. */
    private void awaitAccepting() {
        Gateway.await(() -> {
            if (!process.isAlive()) {
                throw new IllegalStateException("nginx exited " + process.exitValue() + " at start");
            }
            return RawHttpClient.accepting(port);
        }, "nginx accepts on port " + port);
    }

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGTERM (nginx's fast shutdown), then SIGKILL if it lingers. */
    @Override
    public void close() {
        List<ProcessHandle> workers = process.descendants().toList(); // known before the master goes
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        workers.forEach(ProcessHandle::destroyForcibly);
    }
}
