package dev.detour.adapter.view;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class ConsoleMessagesTest {
    @Test
    void englishAndChineseBundlesHaveTheSameKeys() {
        Set<String> en = new TreeSet<>(ConsoleMessages.bundle(Languages.EN).keySet());
        Set<String> zh = new TreeSet<>(ConsoleMessages.bundle(Languages.ZH).keySet());
        assertEquals(en, zh);
    }

    @Test
    void chineseBundleIsReadAsUtf8WithTheSeedWording() {
        assertEquals("错误 3 次", ConsoleMessages.get(Languages.ZH, "account.status.errors", 3));
        assertEquals("冷却 8 秒", ConsoleMessages.get(Languages.ZH, "account.badge.cooldown", 8));
        assertEquals("模型 2 不可用", ConsoleMessages.get(Languages.ZH, "account.badge.modelsUnavailable", 2));
        assertEquals("全部解除", ConsoleMessages.get(Languages.ZH, "model.action.clearAll"));
    }

    @Test
    void englishPluralsFollowTheCount() {
        assertEquals("1 error", ConsoleMessages.get(Languages.EN, "account.status.errors", 1));
        assertEquals("4 errors", ConsoleMessages.get(Languages.EN, "account.status.errors", 4));
    }

    @Test
    void anUnsupportedLocaleGetsEnglishNotTheServerDefault() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.SIMPLIFIED_CHINESE);
            assertEquals("Sign in", ConsoleMessages.get(Locale.FRENCH, "login.submit"));
            assertEquals("Sign in", ConsoleMessages.get(Languages.EN, "login.submit"));
        } finally {
            Locale.setDefault(before);
        }
    }

    @Test
    void aMissingKeyIsVisibleOnThePage() {
        assertEquals("??no.such.key_en??", ConsoleMessages.get(Languages.EN, "no.such.key"));
    }
}
