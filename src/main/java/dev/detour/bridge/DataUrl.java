package dev.detour.bridge;

/** A {@code data:<media type>;base64,<data>} URL: how OpenAI carries an inline image that Anthropic sends as base64. */
record DataUrl(String mediaType, String data) {
    private static final String PREFIX = "data:";
    private static final String BASE64 = ";base64,";

    /** The parts of a base64 data URL, or null for any other URL. */
    static DataUrl parse(String url) {
        if (url == null || !url.startsWith(PREFIX)) {
            return null;
        }
        int marker = url.indexOf(BASE64);
        if (marker < 0) {
            return null;
        }
        return new DataUrl(url.substring(PREFIX.length(), marker), url.substring(marker + BASE64.length()));
    }

    static String format(String mediaType, String data) {
        return PREFIX + mediaType + BASE64 + data;
    }
}
