package dev.detour.adapter.web;

import dev.detour.testkit.Gateway;
import org.htmlunit.WebClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** A console test: a fresh Gateway and an HtmlUnit browser (no JS) signed in as admin. */
abstract class ConsoleCase {
    protected Gateway gw;
    protected WebClient web;

    @BeforeEach
    final void startSignedInConsole() throws Exception {
        gw = Gateway.start();
        web = ConsolePages.browser(false);
        ConsolePages.signIn(web, gw.base());
    }

    @AfterEach
    final void stopSignedInConsole() {
        web.close();
        gw.close();
    }
}
