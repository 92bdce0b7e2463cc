package dev.detour.gateway.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class KeyHashesTest {
    @Test
    void theSha256HexOfAKeyAsStored() {
        // FIPS 180-2's "abc" and the empty string
        assertEquals("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", KeyHashes.sha256Hex("abc"));
        assertEquals("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", KeyHashes.sha256Hex(""));
    }

    @Test
    void concurrentHashesEachGetTheirOwnDigest() throws Exception {
        // the copies of one prototype share no state: a digest shared by two threads would mix their bytes
        String expected = KeyHashes.sha256Hex("sk-detour-concurrent");
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                results.add(threads.submit(() -> {
                    for (int i = 0; i < 20_000; i++) {
                        if (!expected.equals(KeyHashes.sha256Hex("sk-detour-concurrent"))
                                || KeyHashes.sha256Hex("k" + i).length() != 64) {
                            return false;
                        }
                    }
                    return true;
                }));
            }
            for (Future<Boolean> result : results) {
                assertEquals(true, result.get());
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
