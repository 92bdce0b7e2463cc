package dev.detour.adapter.view;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.text.MessageFormat;
import java.util.List;
import java.util.Locale;
import java.util.MissingResourceException;
import java.util.Optional;
import java.util.PropertyResourceBundle;
import java.util.ResourceBundle;

/**
 * U-1 message bundles {@code i18n/messages*.properties}, read as UTF-8 and never falling back to
 * the JVM's default locale (an English page on a Chinese server stays English).
 */
public final class ConsoleMessages {
    private static final String BASE_NAME = "i18n.messages";
    private static final ResourceBundle.Control UTF8 = new Utf8Control();

    private ConsoleMessages() {
    }

    /** The raw pattern for key, if the bundle of this locale (or the base bundle) has one. */
    public static Optional<String> pattern(Locale locale, String key) {
        try {
            return Optional.of(ResourceBundle.getBundle(BASE_NAME, locale, ConsoleMessages.class.getClassLoader(), UTF8)
                    .getString(key));
        } catch (MissingResourceException e) {
            return Optional.empty();
        }
    }

    /** The message formatted with {@link MessageFormat} when there are arguments; {@code ??key??} when missing. */
    public static String get(Locale locale, String key, Object... args) {
        return pattern(locale, key)
                .map(p -> args == null || args.length == 0 ? p : new MessageFormat(p, locale).format(args))
                .orElse("??" + key + "_" + locale.getLanguage() + "??");
    }

    public static ResourceBundle bundle(Locale locale) {
        return ResourceBundle.getBundle(BASE_NAME, locale, ConsoleMessages.class.getClassLoader(), UTF8);
    }

    private static final class Utf8Control extends ResourceBundle.Control {
        @Override
        public List<String> getFormats(String baseName) {
            return FORMAT_PROPERTIES;
        }

        @Override
        public Locale getFallbackLocale(String baseName, Locale locale) {
            return null;
        }

        @Override
        public ResourceBundle newBundle(String baseName, Locale locale, String format, ClassLoader loader, boolean reload)
                throws IOException {
            String resource = toResourceName(toBundleName(baseName, locale), "properties");
            InputStream in = loader.getResourceAsStream(resource);
            if (in == null) {
                return null;
            }
            try (InputStreamReader reader = new InputStreamReader(in, StandardCharsets.UTF_8)) {
                return new PropertyResourceBundle(reader);
            }
        }
    }
}
