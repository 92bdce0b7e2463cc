package dev.detour.server.front;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * L-2 on the front: notices a client that closes (or resets) its connection while its request waits in the queue,
 * when its own thread neither reads nor writes. A blocking read cannot be called off without closing the socket,
 * so a waiting request's channel is made non-blocking and watched by this one selector thread for as long as the
 * wait lasts; a read of -1 (or a reset) runs the gone action. Bytes a client sends while it waits (a pipelined next
 * request) are kept for its next request. When the watch stops the channel is deregistered and blocking again
 * before the answer is written.
 */
final class GoneWatcher implements Runnable, AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(GoneWatcher.class);

    private final Selector selector;
    private final ConcurrentLinkedQueue<Runnable> tasks = new ConcurrentLinkedQueue<>();
    private volatile boolean open = true;

    GoneWatcher() throws IOException {
        this.selector = Selector.open();
        Thread thread = new Thread(this, "detour-front-gone-watch");
        thread.setDaemon(true);
        thread.start();
    }

    /** Starts watching the connection; the returned action stops the watch and returns once the channel blocks again. */
    Runnable watch(FrontConnection connection, Runnable gone) {
        SocketChannel channel = connection.channel();
        try {
            channel.configureBlocking(false);
        } catch (IOException e) {
            return () -> {
            }; // closed already: the write that follows finds out
        }
        Watch watch = new Watch(connection, gone);
        submit(() -> {
            try {
                watch.key = channel.register(selector, SelectionKey.OP_READ, watch);
            } catch (ClosedChannelException e) {
                watch.gone();
            }
        });
        return watch::stop;
    }

    private void submit(Runnable task) {
        tasks.add(task);
        selector.wakeup();
    }

    @Override
    public void run() {
        while (open) {
            try {
                selector.select();
                for (Runnable task; (task = tasks.poll()) != null; ) {
                    task.run();
                }
                Iterator<SelectionKey> selected = selector.selectedKeys().iterator();
                while (selected.hasNext()) {
                    SelectionKey key = selected.next();
                    selected.remove();
                    if (key.isValid()) {
                        ((Watch) key.attachment()).readable();
                    }
                }
            } catch (java.nio.channels.ClosedSelectorException e) {
                return; // closed: Detour is stopping
            } catch (IOException | RuntimeException e) {
                log.warn("the front's gone watch failed a round: {}", e.toString());
            }
        }
    }

    @Override
    public void close() {
        open = false;
        try {
            selector.close();
        } catch (IOException ignored) {
            // closing
        }
    }

    private final class Watch {
        private final FrontConnection connection;
        private final Runnable gone;
        private final ByteBuffer scratch = ByteBuffer.allocate(1024);
        SelectionKey key;
        private boolean fired;

        Watch(FrontConnection connection, Runnable gone) {
            this.connection = connection;
            this.gone = gone;
        }

        /** On the selector thread: the client closed, reset, or sent bytes. */
        void readable() {
            try {
                scratch.clear();
                int n = connection.channel().read(scratch);
                if (n < 0) {
                    gone();
                } else if (n > 0) {
                    connection.stash(scratch.flip());
                }
            } catch (IOException e) {
                gone();
            }
        }

        void gone() {
            if (key != null) {
                key.cancel();
            }
            if (!fired) {
                fired = true;
                connection.clientGone();
                gone.run();
            }
        }

        /** On the request's thread: ends the watch and waits until the channel is deregistered, then blocks again. */
        void stop() {
            if (!open) {
                connection.closeNow(); // Detour is stopping: nothing deregisters the channel any more
                return;
            }
            CountDownLatch deregistered = new CountDownLatch(1);
            submit(() -> {
                fired = true; // a close seen from now on is the answer's to find
                if (key != null) {
                    key.cancel();
                }
                try {
                    selector.selectNow(); // a cancelled key leaves the selector at its next selection
                } catch (IOException ignored) {
                    // the selector is closing; the channel leaves with it
                }
                deregistered.countDown();
            });
            try {
                if (!deregistered.await(5, TimeUnit.SECONDS)) {
                    connection.closeNow(); // the watch thread is gone (Detour stopping)
                    return;
                }
                connection.channel().configureBlocking(true);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                connection.closeNow();
            } catch (IOException | java.nio.channels.IllegalBlockingModeException e) {
                connection.closeNow(); // it cannot be written to as this thread writes: the client is told by a close
            }
        }
    }
}
