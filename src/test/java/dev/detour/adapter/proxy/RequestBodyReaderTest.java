package dev.detour.adapter.proxy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** bodies are buffered as their bytes arrive, within the budget, never by the declared length. */
class RequestBodyReaderTest {
    private static final int MAX = 32 * 1024 * 1024;

    private static byte[] bytes(int size) {
        byte[] b = new byte[size];
        new Random(size).nextBytes(b);
        return b;
    }

    /** Hands out at most {@code step} bytes per read, like a socket delivering small packets. */
    private static InputStream trickle(byte[] data, int step) {
        return new ByteArrayInputStream(data) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, step));
            }
        };
    }

    @Test
    void aSmallDeclaredBodyIsReadIntoOneArrayOfExactlyItsSize() throws Exception {
        BodyBudget budget = new BodyBudget(1 << 20);
        byte[] body = bytes(1500);
        try (BodyBudget.Hold hold = budget.hold()) {
            byte[] read = RequestBodyReader.read(trickle(body, 100), body.length, MAX, hold);
            assertArrayEquals(body, read);
            assertEquals(1500, budget.used(), "exactly the body is reserved");
        }
        assertEquals(0, budget.used(), "released when the request ends");
    }

    @Test
    void aDeclaredThirtyTwoMebibytesWithOneByteSentReservesOnlyTheFirstPiece() throws Exception {
        BodyBudget budget = new BodyBudget(Long.MAX_VALUE);
        try (BodyBudget.Hold hold = budget.hold()) {
            byte[] read = RequestBodyReader.read(new ByteArrayInputStream(new byte[] {'{'}), MAX, MAX, hold);
            assertEquals(1, read.length);
            assertEquals(RequestBodyReader.CHUNK, budget.used(), "64 KiB, not 32 MiB");
        }
    }

    @Test
    void largeAndChunkedBodiesArriveWholeAcrossPieces() throws Exception {
        BodyBudget budget = new BodyBudget(Long.MAX_VALUE);
        for (int size : new int[] {0, 1, 8191, 8192, 8193, 65535, 65536, 65537, 200_000, 3 * 65536}) {
            byte[] body = bytes(size);
            for (long declared : new long[] {size, -1}) {
                try (BodyBudget.Hold hold = budget.hold()) {
                    byte[] read = RequestBodyReader.read(trickle(body, 7000), declared, MAX, hold);
                    assertArrayEquals(body, read, size + " bytes, declared " + declared);
                    assertTrue(budget.used() <= size + RequestBodyReader.CHUNK,
                            "never more than what arrived plus one piece: " + budget.used());
                }
            }
        }
    }

    @Test
    void aChunkedBodyOverTheCapIsTooLargeAndADeclaredOneIsRefusedBeforeReading() {
        BodyBudget budget = new BodyBudget(Long.MAX_VALUE);
        int max = 100_000;
        assertThrows(RequestBodyReader.TooLargeException.class,
                () -> RequestBodyReader.read(trickle(bytes(max + 1), 9000), -1, max, budget.hold()));
        InputStream untouched = new ByteArrayInputStream(new byte[0]) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                throw new AssertionError("read although the declared length is over the cap");
            }
        };
        assertThrows(RequestBodyReader.TooLargeException.class,
                () -> RequestBodyReader.read(untouched, max + 1, max, budget.hold()));
        byte[] exact = bytes(max);
        try (BodyBudget.Hold hold = budget.hold()) {
            assertEquals(max, RequestBodyReader.read(trickle(exact, 9000), -1, max, hold).length);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void aBodyThatWouldPassTheBudgetIsRefusedAndCountedAndItsPartIsReleased() throws IOException {
        BodyBudget budget = new BodyBudget(3 * RequestBodyReader.CHUNK);
        BodyBudget.Hold first = budget.hold();
        try {
            RequestBodyReader.read(trickle(bytes(2 * RequestBodyReader.CHUNK), 5000), -1, MAX, first);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        try (BodyBudget.Hold second = budget.hold()) {
            assertThrows(RequestBodyReader.BudgetExhaustedException.class,
                    () -> RequestBodyReader.read(trickle(bytes(2 * RequestBodyReader.CHUNK), 5000), -1, MAX, second));
        }
        assertEquals(1, budget.exhaustedCount());
        first.close();
        assertEquals(0, budget.used());
        try (BodyBudget.Hold third = budget.hold()) {
            byte[] body = bytes(2 * RequestBodyReader.CHUNK);
            assertArrayEquals(body, RequestBodyReader.read(trickle(body, 5000), body.length, MAX, third));
        } catch (RequestBodyReader.TooLargeException | RequestBodyReader.BudgetExhaustedException e) {
            throw new AssertionError(e);
        }
    }
}
