package dev.detour.adapter.upstream;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLEngineResult.Status;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;

/**
 * An https connection's TLS, an {@link SSLEngine} over the connection's own socket channel. An {@code SSLSocket}
 * reads only blocking; this reads in whichever mode the channel is in, so the stream pump can take a TLS stream's
 * next bytes without waiting as it takes a plain one's (N-7). The handshake waits (at connect, under the connect
 * gap); later handshake messages are handled where they come: TLS 1.3 session tickets and key updates (a key update
 * the upstream asks to be answered makes a read write), a TLS 1.2 renegotiation.
 *
 * <p>One thread at a time reads or writes it (the connection's lessee, or the pump while the stream is pumped).
 */
final class TlsChannel {
    private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);
    /** A TLS record's header: content type (1), version (2), length (2). */
    private static final int RECORD_HEADER = 5;

    private final SocketChannel channel;
    private final SSLEngine engine;
    /** Bytes from the socket not decrypted yet (write mode): a record's start, or whole records that came together. */
    private ByteBuffer fromNet;
    /** Decrypted bytes not read yet (read mode). */
    private ByteBuffer plain;
    /** A record on its way to the socket. */
    private ByteBuffer toNet;
    /** The upstream ended its side (close_notify, or the socket's end). */
    private boolean ended;

    private TlsChannel(SocketChannel channel, SSLEngine engine) {
        this.channel = channel;
        this.engine = engine;
        int packet = engine.getSession().getPacketBufferSize();
        this.fromNet = ByteBuffer.allocate(packet);
        this.plain = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize()).flip();
        this.toNet = ByteBuffer.allocate(packet);
    }

    /**
     * TLS to {@code host} over a connected, blocking channel: completes the handshake, the certificate checked
     * against the context's trust and the host name (SNI sent for a name, not for an address).
     */
    static TlsChannel handshake(SocketChannel channel, SSLContext context, String host, int port) throws IOException {
        SSLEngine engine = context.createSSLEngine(host, port);
        engine.setUseClientMode(true);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm("HTTPS");
        engine.setSSLParameters(parameters);
        TlsChannel tls = new TlsChannel(channel, engine);
        engine.beginHandshake();
        for (HandshakeStatus status = engine.getHandshakeStatus(); handshaking(status);
                status = engine.getHandshakeStatus()) {
            tls.advance(status);
        }
        if (engine.isInboundDone() || engine.isOutboundDone()) {
            throw new SSLHandshakeException("the upstream closed TLS during the handshake");
        }
        return tls;
    }

    /** The decrypted input: blocking or not as the channel is (0: nothing had arrived, only a non-blocking read). */
    BulkInput input() {
        return new BulkInput() {
            @Override
            public int read(byte[] into, int offset, int length) throws IOException {
                return TlsChannel.this.read(into, offset, length);
            }
        };
    }

    /** The encrypting output, written while the channel blocks (a request). */
    OutputStream output() {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                wrap(ByteBuffer.wrap(bytes, offset, length));
            }
        };
    }

    /**
     * N-7: whether decrypted bytes, or a whole record, wait here: a read takes them without the socket, so a pump
     * must not wait for the socket before it reads them.
     */
    boolean holdsUnread() {
        if (plain.hasRemaining()) {
            return true;
        }
        int held = fromNet.position();
        if (held < RECORD_HEADER) {
            return false;
        }
        int length = (fromNet.get(3) & 0xff) << 8 | fromNet.get(4) & 0xff;
        return held >= RECORD_HEADER + length;
    }

    /**
     * On an idle connection whose channel does not block: whether the upstream ended TLS, or sent application bytes no
     * request asked for. Session tickets and key updates that came meanwhile are taken on the way.
     */
    boolean endedOrSpoke() throws IOException {
        return read(new byte[1], 0, 1) != 0;
    }

    private int read(byte[] into, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        for (;;) {
            if (plain.hasRemaining()) {
                int n = Math.min(length, plain.remaining());
                plain.get(into, offset, n);
                return n;
            }
            if (ended) {
                return -1;
            }
            if (fromNet.position() > 0) {
                SSLEngineResult result = unwrap();
                if (result.getStatus() == Status.CLOSED) {
                    ended = true;
                    continue;
                }
                if (handshaking(result.getHandshakeStatus())) {
                    answerHandshake();
                }
                if (result.getStatus() != Status.BUFFER_UNDERFLOW) {
                    continue; // application bytes, or a handshake message taken: look again
                }
            }
            int n = receive();
            if (n < 0) {
                ended = true; // without close_notify: a body its framing finds cut short fails as cut short
                return -1;
            }
            if (n == 0) {
                return 0; // not blocking, and nothing more had arrived
            }
        }
    }

    /**
     * A handshake message read mid-stream may want its own answer: a TLS 1.3 key update the upstream asks to be
     * answered, the messages of a renegotiation. The rest of a renegotiation comes through {@link #read}'s unwraps.
     */
    private void answerHandshake() throws IOException {
        for (HandshakeStatus status = engine.getHandshakeStatus();
                status == HandshakeStatus.NEED_TASK || status == HandshakeStatus.NEED_WRAP;
                status = engine.getHandshakeStatus()) {
            advance(status);
        }
    }

    /** One step of a handshake: its slow tasks, a message to send, or the upstream's next message. */
    private void advance(HandshakeStatus status) throws IOException {
        switch (status) {
            case NEED_TASK -> {
                for (Runnable task; (task = engine.getDelegatedTask()) != null; ) {
                    task.run();
                }
            }
            case NEED_WRAP -> wrap(NOTHING);
            case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                SSLEngineResult result = unwrap();
                if (result.getStatus() == Status.CLOSED) {
                    throw new SSLHandshakeException("the upstream closed TLS during a handshake");
                }
                if (result.getStatus() == Status.BUFFER_UNDERFLOW) {
                    int n = receive();
                    if (n < 0) {
                        throw new SSLHandshakeException("the upstream closed the connection during a TLS handshake");
                    }
                    if (n == 0) {
                        throw new SSLException("a TLS handshake message had not arrived (the socket was not waited on)");
                    }
                }
            }
            default -> { }
        }
    }

    /** Encrypts {@code source} whole (or one handshake message, for {@link #NOTHING}) and sends it. */
    private void wrap(ByteBuffer source) throws IOException {
        do {
            toNet.clear();
            SSLEngineResult result = engine.wrap(source, toNet);
            if (result.getStatus() == Status.BUFFER_OVERFLOW) {
                toNet = ByteBuffer.allocate(Math.max(engine.getSession().getPacketBufferSize(), 2 * toNet.capacity()));
                continue;
            }
            if (result.getStatus() == Status.CLOSED) {
                throw new SSLException("TLS to the upstream is closed");
            }
            toNet.flip();
            send();
            HandshakeStatus status = result.getHandshakeStatus();
            if (status == HandshakeStatus.NEED_TASK) {
                advance(status);
            } else if (result.bytesConsumed() == 0 && result.bytesProduced() == 0 && source.hasRemaining()) {
                if (!handshaking(status)) {
                    throw new SSLException("TLS took none of the request's bytes");
                }
                advance(status); // a renegotiation holds the request back until the upstream's next message
            }
        } while (source.hasRemaining());
    }

    /** Writes {@link #toNet} whole. */
    private void send() throws IOException {
        while (toNet.hasRemaining()) {
            if (channel.write(toNet) == 0 && !channel.isBlocking()) {
                // a pumped read answering a key update: the socket has sent nothing for long, so a full send buffer
                // is a socket in trouble; the stream fails here rather than spin on the pump's thread
                throw new SSLException("the upstream's socket took no bytes of a TLS handshake answer");
            }
        }
    }

    /** Decrypts what {@link #fromNet} holds into {@link #plain}'s free end, growing it when a record does not fit. */
    private SSLEngineResult unwrap() throws SSLException {
        for (;;) {
            fromNet.flip();
            plain.compact();
            SSLEngineResult result;
            try {
                result = engine.unwrap(fromNet, plain);
            } finally {
                fromNet.compact();
                plain.flip();
            }
            if (result.getStatus() != Status.BUFFER_OVERFLOW) {
                return result;
            }
            ByteBuffer bigger = ByteBuffer.allocate(
                    Math.max(engine.getSession().getApplicationBufferSize(), 2 * plain.capacity()));
            plain = bigger.put(plain).flip();
        }
    }

    /** Reads the socket once into {@link #fromNet}, growing it when a record does not fit: the bytes read, or -1. */
    private int receive() throws IOException {
        if (!fromNet.hasRemaining()) {
            ByteBuffer bigger = ByteBuffer.allocate(
                    Math.max(engine.getSession().getPacketBufferSize(), 2 * fromNet.capacity()));
            fromNet = bigger.put(fromNet.flip());
        }
        return channel.read(fromNet);
    }

    private static boolean handshaking(HandshakeStatus status) {
        return status != HandshakeStatus.NOT_HANDSHAKING && status != HandshakeStatus.FINISHED;
    }
}
