package dev.detour.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ThreadStacksTest {

    @Test
    void theJdksPlainTextDumpsGiveEachThreadsClassesWithoutModuleOrLoaderPrefix() {
        List<List<String>> threads = ThreadStacks.parse(List.of(
                "12345",
                "2026-12-07T00:00:00Z",
                "25+36-LTS",
                "",
                "#1 \"main\"",
                "      java.base/java.lang.Object.wait0(Native Method)",
                "      app//dev.detour.adapter.proxy.Relay.lambda$relay$0(Relay.java:10)",
                "",
                "#42 \"\" virtual WAITING 2026-12-07T00:57:37.631861026Z",
                "    at java.base/jdk.internal.vm.Continuation.yield(Continuation.java:357)",
                "    - parking to wait for <java.util.concurrent.CountDownLatch$Sync@11dc3715>",
                "    at dev.detour.server.front.BoundedBody.read(BoundedBody.java:70)",
                "    at dev.detour.adapter.proxy.Relay.relay(Relay.java:55)",
                ""));

        assertEquals(List.of(
                List.of("java.lang.Object", "dev.detour.adapter.proxy.Relay"),
                List.of("jdk.internal.vm.Continuation", "dev.detour.server.front.BoundedBody",
                        "dev.detour.adapter.proxy.Relay")), threads);
    }

    @Test
    void aThreadWaitingInThisClassIsListedVirtualWhereTheJdkHasVirtualThreads() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        Thread parked = start(() -> waitFor(release));
        try {
            boolean seen = false;
            for (int i = 0; i < 500 && !seen; i++) {
                seen = ThreadStacks.classesPerThread().stream()
                        .anyMatch(stack -> stack.contains(ThreadStacksTest.class.getName())
                                && stack.contains(CountDownLatch.class.getName()));
            }
            assertTrue(seen, "the parked thread's frame in this class");
        } finally {
            release.countDown();
            parked.join();
        }
    }

    /** A virtual thread on JDK 21+ (the case {@link Thread#getAllStackTraces()} misses), a platform one on 17. */
    private static Thread start(Runnable task) throws ReflectiveOperationException {
        try {
            return (Thread) Thread.class.getMethod("startVirtualThread", Runnable.class).invoke(null, task);
        } catch (NoSuchMethodException e) {
            Thread thread = new Thread(task, "thread-stacks-test");
            thread.start();
            return thread;
        }
    }

    private static void waitFor(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
