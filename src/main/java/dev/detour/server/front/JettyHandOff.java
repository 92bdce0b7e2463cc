package dev.detour.server.front;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.Executor;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.SelectorManager;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.Scheduler;

/**
 * Jetty's connector behind the front: it takes connections the front accepted, with the bytes the front already
 * read from them, exactly as Jetty takes a connection after a PROXY protocol line ({@link Connection.UpgradeTo}:
 * the HTTP connection starts with those bytes in its buffer and parses them at once). It listens on a loopback
 * port of its own that nobody is told of (Jetty's connector needs one; it serves the same handlers there).
 */
public final class JettyHandOff extends ServerConnector {
    public JettyHandOff(Server server, ConnectionFactory... factories) {
        super(server, factories);
        setHost("127.0.0.1");
        setPort(0);
    }

    @Override
    protected SelectorManager newSelectorManager(Executor executor, Scheduler scheduler, int selectors) {
        return new ServerConnectorManager(executor, scheduler, selectors) {
            @Override
            public Connection newConnection(SelectableChannel channel, EndPoint endPoint, Object attachment)
                    throws IOException {
                Connection connection = super.newConnection(channel, endPoint, attachment);
                if (attachment instanceof ByteBuffer read && read.hasRemaining()
                        && connection instanceof Connection.UpgradeTo upgrade) {
                    upgrade.onUpgradeTo(read);
                }
                return connection;
            }
        };
    }

    /** Jetty serves the connection from now on, starting with {@code read} (at most its input buffer's size). */
    void take(SocketChannel channel, ByteBuffer read) throws IOException {
        channel.configureBlocking(false);
        getSelectorManager().accept(channel, read);
    }
}
