package dev.detour.adapter.view;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LanguagesTest {
    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(nullValues = "NULL", value = {
        "NULL,                           en",
        "'',                             en",
        "zh-CN,                          zh",
        "zh-TW;q=0.9,                    zh",
        "zh,                             zh",
        "'zh-CN,zh;q=0.9,en;q=0.8',      zh",
        "'en-US,zh;q=0.9',               en",
        "'en;q=0.5,zh-Hans;q=0.8',       zh",
        "fr-FR,                          en",
        "'*',                            en",
        "'not a ;;; header',             en",
    })
    void acceptLanguageChoosesZhOnlyForAFirstChoiceStartingWithZh(String header, String expected) {
        assertEquals(expected, Languages.fromAcceptLanguage(header).getLanguage());
    }
}
