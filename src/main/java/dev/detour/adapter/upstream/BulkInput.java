package dev.detour.adapter.upstream;

import java.io.IOException;
import java.io.InputStream;

/** A stream read in blocks: a single-byte read is a block of one (rare here: a relay reads 8 KiB at a time). */
abstract class BulkInput extends InputStream {
    @Override
    public final int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public abstract int read(byte[] into, int offset, int length) throws IOException;
}
