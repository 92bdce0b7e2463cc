package dev.detour.adapter.journal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Journals written by DataOutputStream (every release before this writer) and by {@link RecordWriter} must be
 * the same bytes, so either reads with the one decoder (DataInputStream) whatever wrote it.
 */
class RecordWriterTest {
    private static final List<String> STRINGS = List.of("", "01JABCDEFGHJKMNPQRSTVWXYZ0", "chat_completions",
            "nul\u0000inside", "\u007f\u0080\u07ff\u0800", "café", "路由到备用账号", "emoji 🚀 and 𝄞",
            "lone surrogate \ud800 end", "\uffff", "x".repeat(16_000), "路".repeat(16_000));

    @Test
    void writesTheBytesDataOutputStreamWrites() throws IOException {
        RecordWriter ours = new RecordWriter(0);
        ByteArrayOutputStream reference = new ByteArrayOutputStream();
        try (DataOutputStream theirs = new DataOutputStream(reference)) {
            for (long value : new long[] {0, 1, -1, Long.MAX_VALUE, Long.MIN_VALUE, 0x0102030405060708L}) {
                ours.writeLong(value);
                theirs.writeLong(value);
                ours.writeInt((int) value);
                theirs.writeInt((int) value);
                ours.writeShort((int) value);
                theirs.writeShort((int) value);
                ours.writeByte((int) value);
                theirs.writeByte((int) value);
            }
            for (boolean value : new boolean[] {true, false}) {
                ours.writeBoolean(value);
                theirs.writeBoolean(value);
            }
            for (String value : STRINGS) {
                ours.writeUTF(value);
                theirs.writeUTF(value);
            }
        }
        assertArrayEquals(reference.toByteArray(), ours.toByteArray());
    }

    @Test
    void randomCharsReadBackThroughDataInputStream() throws IOException {
        Random random = new Random(23);
        RecordWriter ours = new RecordWriter(0);
        String[] written = new String[200];
        for (int i = 0; i < written.length; i++) {
            char[] chars = new char[random.nextInt(300)];
            for (int c = 0; c < chars.length; c++) {
                // every char class: ASCII, NUL, two- and three-byte, surrogates
                chars[c] = (char) (random.nextInt(4) == 0 ? random.nextInt(0x80) : random.nextInt(0x10000));
            }
            written[i] = new String(chars);
            ours.writeUTF(written[i]);
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(ours.toByteArray()));
        for (String expected : written) {
            assertEquals(expected, in.readUTF());
        }
        assertEquals(0, in.available());
    }

    @Test
    void theHeaderKeptInFrontIsFilledLater() {
        RecordWriter out = new RecordWriter(8);
        out.writeByte(7);
        out.putIntAt(0, 1);
        out.putIntAt(4, -2);

        assertArrayEquals(new byte[] {0, 0, 0, 1, -1, -1, -1, -2, 7}, out.toByteArray());
        assertEquals(9, out.size());
    }

    @Test
    void aStringOverWriteUtfsLimitIsRefusedAsDataOutputStreamRefusesIt() {
        String tooLong = "路".repeat(21_846); // 65,538 encoded bytes

        assertThrows(IllegalArgumentException.class, () -> new RecordWriter(0).writeUTF(tooLong));
        assertThrows(IOException.class, () -> new DataOutputStream(new ByteArrayOutputStream()).writeUTF(tooLong));
    }
}
