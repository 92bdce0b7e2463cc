package jitprobe;

/**
 * The twin of {@code JitProbe.mix} in a class outside Detour's (and the database driver's) packages, so the
 * production flags' per-package compile thresholds do not apply to it (ProductionJvmFlagsTest).
 */
public final class OutsideDetour {
    private OutsideDetour() {
    }

    public static int mix(int x) {
        int h = x * 0x9E3779B9;
        return Integer.rotateLeft(h, 7) ^ (h >>> 3);
    }
}
