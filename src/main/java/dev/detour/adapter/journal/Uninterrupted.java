package dev.detour.adapter.journal;

import java.io.IOException;

/**
 * File writes that a thread's interrupt cannot break. A {@code FileChannel} closes itself for every
 * thread when the thread writing to it is interrupted ({@code ClosedByInterruptException}); executors
 * interrupt their threads at shutdown ({@code shutdownNow}), so a recovery probe logging its event as
 * Detour stops would otherwise close the journal under everyone still appending. The interrupt is kept
 * aside for the write and restored after it, so the caller still sees it.
 */
final class Uninterrupted {
    interface Write<T> {
        T run() throws IOException;
    }

    private Uninterrupted() {
    }

    static <T> T io(Write<T> write) throws IOException {
        boolean interrupted = Thread.interrupted();
        try {
            return write.run();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
