package dev.detour.json;

import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.core.util.RecyclerPool;
import java.util.function.BooleanSupplier;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Jackson's buffers recycled in the way that fits the thread parsing or writing. Jackson 2 keeps one buffer set per
 * thread ({@code ThreadLocal}), the best choice for Java 17's pooled platform threads; but on 21+ Jetty runs each
 * request on a new virtual thread, so every request allocated a fresh set (kilobytes of byte and char arrays per
 * parser and generator). On a virtual thread a set is taken from a bounded shared pool and given back when the
 * parser or generator closes; each set goes back to the pool it came from, whichever thread closes it.
 */
final class ThreadFittingPool implements RecyclerPool<BufferRecycler> {
    private static final long serialVersionUID = 1L;
    /** Sets kept for virtual threads: about the parsers and generators open at once under load, not per stream held. */
    static final int SHARED_SETS = 256;
    /**
     * {@code Thread.isVirtual()} on 21+, null on 17 (the code compiles for 17). A constant handle the JIT inlines:
     * Jetty's {@code VirtualThreads.isVirtualThread()} calls through reflection and, on 17, throws and catches an
     * exception per call.
     */
    private static final MethodHandle IS_VIRTUAL = isVirtualHandle();

    private final transient BooleanSupplier onVirtualThread;
    private final RecyclerPool<BufferRecycler> perThread = JsonRecyclerPools.threadLocalPool();
    private final RecyclerPool<BufferRecycler> shared = JsonRecyclerPools.newBoundedPool(SHARED_SETS);

    ThreadFittingPool() {
        this(ThreadFittingPool::onVirtualThread);
    }

    /** Tests: which kind of thread the caller is on. */
    ThreadFittingPool(BooleanSupplier onVirtualThread) {
        this.onVirtualThread = onVirtualThread;
    }

    /** Linked to the pool it came from, so closing gives it back there (a per-thread set is never linked). */
    @Override
    public BufferRecycler acquireAndLinkPooled() {
        return onVirtualThread.getAsBoolean() ? shared.acquireAndLinkPooled() : perThread.acquireAndLinkPooled();
    }

    @Override
    public BufferRecycler acquirePooled() {
        return onVirtualThread.getAsBoolean() ? shared.acquirePooled() : perThread.acquirePooled();
    }

    @Override
    public void releasePooled(BufferRecycler recycler) {
        shared.releasePooled(recycler); // only sets from the shared pool are ever linked to a pool and released
    }

    static boolean onVirtualThread() {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invokeExact(Thread.currentThread());
        } catch (Throwable e) {
            return false; // isVirtual() throws nothing; a platform thread's way is always safe
        }
    }

    private static MethodHandle isVirtualHandle() {
        try {
            return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual",
                    MethodType.methodType(boolean.class));
        } catch (ReflectiveOperationException e) {
            return null; // Java 17: no virtual threads
        }
    }

    /** How many sets wait in the shared pool (tests). */
    @Override
    public int pooledCount() {
        return shared.pooledCount();
    }
}
