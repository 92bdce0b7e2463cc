package dev.detour.adapter.proxy;

import java.io.IOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.io.AbstractEndPoint;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;

/**
 * L-2: notices a client that closes (or resets) its connection while its request waits in the queue and
 * nothing is read or written. Jetty reads an HTTP/1.1 connection only for a request's body or after its
 * answer, so no failure reaches the request then (WaitQueueIT: the closed client stayed queued); this
 * watch registers read interest on the connection's end point itself, and a close makes it readable with
 * a read of -1. Bytes a client sends while it waits (a pipelined next request, which mainstream clients
 * never do) are consumed here, so that connection is closed after its answer.
 */
final class ClientGoneWatch implements Callback {
    private final EndPoint endPoint;
    private final Runnable gone;
    private final AtomicBoolean watching = new AtomicBoolean(true);
    private volatile boolean consumedBytes;

    private ClientGoneWatch(EndPoint endPoint, Runnable gone) {
        this.endPoint = endPoint;
        this.gone = gone;
    }

    /** Starts watching; a connection someone else is already reading is left alone (no watch). */
    static ClientGoneWatch start(EndPoint endPoint, Runnable gone) {
        ClientGoneWatch watch = new ClientGoneWatch(endPoint, gone);
        if (!endPoint.tryFillInterested(watch)) {
            watch.watching.set(false);
        }
        return watch;
    }

    /** Ends the watch before the answer begins, so Jetty's own read interest finds the end point free. */
    void stop() {
        if (watching.compareAndSet(true, false) && endPoint instanceof AbstractEndPoint abstractEndPoint
                && abstractEndPoint.isFillInterested()) {
            abstractEndPoint.getFillInterest().onFail(new CancellationException("the wait ended"));
        }
    }

    /** The client sent bytes while it waited: they are gone, so must its connection be after the answer. */
    boolean consumedBytes() {
        return consumedBytes;
    }

    @Override
    public void succeeded() {
        if (!watching.get()) {
            return;
        }
        try {
            int read = endPoint.fill(BufferUtil.allocate(1));
            if (read < 0) {
                clientGone();
                return;
            }
            consumedBytes |= read > 0;
            if (!endPoint.tryFillInterested(this)) {
                watching.set(false);
            }
        } catch (IOException e) {
            clientGone(); // a reset
        }
    }

    @Override
    public void failed(Throwable x) {
        clientGone(); // the end point closed (after stop() this does nothing)
    }

    private void clientGone() {
        if (watching.compareAndSet(true, false)) {
            gone.run();
        }
    }
}
