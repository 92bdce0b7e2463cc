package dev.detour.adapter.journal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The bytes {@link java.io.DataOutputStream} writes — big-endian numbers, {@code writeUTF}'s modified UTF-8
 * behind its two-byte length — into one growable array, with room kept in front for the record's header.
 * Request threads encode an event per request (D-2: before the request goes on); a DataOutputStream over a
 * ByteArrayOutputStream paid a synchronized call per field, an array per string and two copies of every record
 * (2 % of a buffered request's CPU samples, docs/performance.md). Journals written before read the same.
 */
final class RecordWriter {
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    /** writeUTF's limit: its length prefix is an unsigned short. */
    static final int MAX_UTF_BYTES = 65_535;
    /** A buffered request's finished record is ~300 bytes: room for it without growing. */
    private static final int INITIAL = 512;

    private byte[] bytes;
    private int size;

    /** @param reserved bytes left at the front for a header, filled later with {@link #putIntAt} */
    RecordWriter(int reserved) {
        bytes = new byte[INITIAL];
        size = reserved;
    }

    void writeByte(int value) {
        room(1);
        bytes[size++] = (byte) value;
    }

    void writeBoolean(boolean value) {
        writeByte(value ? 1 : 0);
    }

    void writeShort(int value) {
        room(2);
        SHORT.set(bytes, size, (short) value);
        size += 2;
    }

    void writeInt(int value) {
        room(4);
        INT.set(bytes, size, value);
        size += 4;
    }

    void writeLong(long value) {
        room(8);
        LONG.set(bytes, size, value);
        size += 8;
    }

    /**
     * As {@code DataOutputStream.writeUTF}: U+0001…U+007F one byte, U+0000 and U+0080…U+07FF two, the rest three
     * (a surrogate pair as two chars of three bytes each); refuses a string of more than 65,535 encoded bytes.
     */
    void writeUTF(String value) {
        int chars = value.length();
        int encoded = chars;
        for (int i = 0; i < chars; i++) {
            char c = value.charAt(i);
            if (c >= 0x80 || c == 0) {
                encoded += c >= 0x800 ? 2 : 1;
            }
        }
        if (encoded > MAX_UTF_BYTES) {
            throw new IllegalArgumentException("string of " + encoded + " encoded bytes is over writeUTF's 65,535");
        }
        writeShort(encoded);
        room(encoded);
        byte[] out = bytes;
        int at = size;
        for (int i = 0; i < chars; i++) {
            char c = value.charAt(i);
            if (c != 0 && c < 0x80) {
                out[at++] = (byte) c;
            } else if (c < 0x800) {
                out[at++] = (byte) (0xC0 | (c >> 6));
                out[at++] = (byte) (0x80 | (c & 0x3F));
            } else {
                out[at++] = (byte) (0xE0 | (c >> 12));
                out[at++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                out[at++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        size = at;
    }

    /** Writes an int over bytes already counted (the header kept in front). */
    void putIntAt(int offset, int value) {
        INT.set(bytes, offset, value);
    }

    int size() {
        return size;
    }

    /** The array written into; valid up to {@link #size}. */
    byte[] array() {
        return bytes;
    }

    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    private void room(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }
}
