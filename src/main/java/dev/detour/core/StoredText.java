package dev.detour.core;

/** D-4: how a reason quotes a stored value that cannot be read. */
public final class StoredText {
    private StoredText() {
    }

    /** Stored text quoted in a reason: short, one line. */
    public static String shortText(String text) {
        String oneLine = text.replaceAll("\\p{Cntrl}", "?").trim();
        return oneLine.length() <= 40 ? oneLine : oneLine.substring(0, 40) + "…";
    }
}
