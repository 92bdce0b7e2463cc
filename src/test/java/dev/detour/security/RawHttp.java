package dev.detour.security;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One HTTP/1.1 exchange on a plain socket, written byte for byte as given, so a test can send
 * what no well-behaved client library would (a raw {@code ;} path, TRACE, a {@code //} target)
 * and see every header of the answer, redirects unfollowed.
 */
final class RawHttp {
    private RawHttp() {
    }

    record Answer(int status, List<String[]> headers, String body) {
        Optional<String> header(String name) {
            return headers.stream().filter(h -> h[0].equalsIgnoreCase(name)).map(h -> h[1]).findFirst();
        }

        List<String> all(String name) {
            return headers.stream().filter(h -> h[0].equalsIgnoreCase(name)).map(h -> h[1]).toList();
        }

        /** The value of cookie {@code name} set by this answer, if any. */
        Optional<String> cookie(String name) {
            return all("Set-Cookie").stream().filter(c -> c.startsWith(name + "="))
                    .map(c -> c.substring(name.length() + 1, c.indexOf(';') < 0 ? c.length() : c.indexOf(';')))
                    .findFirst();
        }

        Optional<String> setCookieLine(String name) {
            return all("Set-Cookie").stream().filter(c -> c.startsWith(name + "=")).findFirst();
        }

        /** The value of a hidden form field, e.g. the sign-in form's {@code _csrf}. */
        String field(String name) {
            Matcher m = Pattern.compile("name=\"" + Pattern.quote(name) + "\" value=\"([^\"]*)\"").matcher(body);
            if (!m.find()) {
                throw new AssertionError("no field " + name + " in " + body);
            }
            return m.group(1);
        }
    }

    static Answer get(int port, String target, String... extraHeaders) throws IOException {
        return send(port, "GET", target, null, extraHeaders);
    }

    static Answer postForm(int port, String target, String form, String... extraHeaders) throws IOException {
        List<String> headers = new ArrayList<>(List.of(extraHeaders));
        headers.add("Content-Type: application/x-www-form-urlencoded");
        return send(port, "POST", target, form, headers.toArray(String[]::new));
    }

    static Answer send(int port, String method, String target, String body, String... extraHeaders) throws IOException {
        byte[] bytes = body == null ? new byte[0] : body.getBytes(StandardCharsets.UTF_8);
        StringBuilder head = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n")
                .append("Host: 127.0.0.1:").append(port).append("\r\nConnection: close\r\n")
                .append("Accept-Language: en\r\n");
        for (String header : extraHeaders) {
            head.append(header).append("\r\n");
        }
        if (body != null) {
            head.append("Content-Length: ").append(bytes.length).append("\r\n");
        }
        head.append("\r\n");
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            out.write(bytes);
            out.flush();
            return parse(readAll(socket.getInputStream()));
        }
    }

    /** The console sign-in as a browser does it: a fresh anonymous session and its form token, then the POST. */
    static Answer signIn(int port, String next) throws IOException {
        Answer form = get(port, "/login");
        String session = form.cookie("DETOUR_SESSION").orElseThrow();
        return postForm(port, "/login", form("_csrf", form.field("_csrf"), "next", next, "username", "admin",
                "password", dev.detour.testkit.TestApp.ADMIN_PASSWORD), "Cookie: DETOUR_SESSION=" + session);
    }

    static String form(String... pairs) {
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < pairs.length; i += 2) {
            s.append(i == 0 ? "" : "&").append(pairs[i]).append('=')
                    .append(URLEncoder.encode(pairs[i + 1], StandardCharsets.UTF_8));
        }
        return s.toString();
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        in.transferTo(all);
        return all.toByteArray();
    }

    private static Answer parse(byte[] raw) {
        String text = new String(raw, StandardCharsets.ISO_8859_1); // one char per byte: indexes are byte offsets
        int end = text.indexOf("\r\n\r\n");
        if (end < 0) {
            throw new AssertionError("no complete answer: " + text);
        }
        String[] lines = text.substring(0, end).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        List<String[]> headers = new ArrayList<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.add(new String[] {lines[i].substring(0, colon).trim(), lines[i].substring(colon + 1).trim()});
        }
        String body = text.substring(end + 4);
        boolean chunked = headers.stream().anyMatch(h -> h[0].equalsIgnoreCase("Transfer-Encoding")
                && h[1].toLowerCase(Locale.ROOT).contains("chunked"));
        String bytes = chunked ? unchunk(body) : body;
        return new Answer(status, headers, new String(bytes.getBytes(StandardCharsets.ISO_8859_1), StandardCharsets.UTF_8));
    }

    private static String unchunk(String body) {
        StringBuilder out = new StringBuilder();
        int at = 0;
        while (at < body.length()) {
            int lineEnd = body.indexOf("\r\n", at);
            if (lineEnd < 0) {
                break;
            }
            int size = Integer.parseInt(body.substring(at, lineEnd).split(";")[0].trim(), 16);
            if (size == 0) {
                break;
            }
            out.append(body, lineEnd + 2, Math.min(body.length(), lineEnd + 2 + size));
            at = lineEnd + 2 + size + 2;
        }
        return out.toString();
    }
}
