package dev.detour.testkit;

import jitprobe.OutsideDetour;

/**
 * N-6's probe (ProductionJvmFlagsTest): the same small method in one of Detour's classes and in a class outside
 * Detour, each called {@link #CALLS} times. That is past a quarter of C2's invocation threshold (5,000 by default)
 * and short of all of it; the loop is too short for on-stack replacement, and under {@code -Xbatch} a compile the
 * calls ask for is finished before the next call, so what {@code -XX:+PrintCompilation} lists is deterministic.
 */
public final class JitProbe {
    public static final int CALLS = 4_000;

    private JitProbe() {
    }

    public static void main(String[] args) {
        int sum = 0;
        for (int i = 0; i < CALLS; i++) {
            sum += mix(i) + OutsideDetour.mix(i);
        }
        System.out.println("probe done " + sum);
    }

    static int mix(int x) {
        int h = x * 0x9E3779B9;
        return Integer.rotateLeft(h, 7) ^ (h >>> 3);
    }
}
