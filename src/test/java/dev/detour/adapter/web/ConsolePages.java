package dev.detour.adapter.web;

import dev.detour.adapter.crypto.SecretBox;
import dev.detour.testkit.TestApp;
import dev.detour.testkit.TestDatabase;
import java.io.IOException;
import java.net.URL;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.htmlunit.NicelyResynchronizingAjaxController;
import org.htmlunit.WebClient;
import org.htmlunit.html.HtmlForm;
import org.htmlunit.html.HtmlPage;

/** HtmlUnit helpers for console ITs: a browser per test, sign-in through the real form, test rows. */
final class ConsolePages {
    private ConsolePages() {
    }

    static WebClient browser(boolean javaScript) {
        WebClient web = new WebClient();
        web.getOptions().setJavaScriptEnabled(javaScript);
        web.getOptions().setCssEnabled(false);
        web.getOptions().setThrowExceptionOnFailingStatusCode(false);
        web.getOptions().setThrowExceptionOnScriptError(true);
        web.addRequestHeader("Accept-Language", "en-US,en;q=0.5");
        return web;
    }

    /** A JavaScript browser with htmx's XHRs made synchronous, signed in to {@code base}. */
    static WebClient signedInScriptedBrowser(String base) throws IOException {
        WebClient web = browser(true);
        web.setAjaxController(new NicelyResynchronizingAjaxController());
        signIn(web, base);
        return web;
    }

    static HtmlPage signIn(WebClient web, String base, String password) throws IOException {
        HtmlPage login = web.getPage(base + "/login");
        return submitLogin(login, "admin", password);
    }

    static HtmlPage submitLogin(HtmlPage login, String username, String password) throws IOException {
        HtmlForm form = login.querySelector("form.login");
        form.getInputByName("username").setValue(username);
        form.getInputByName("password").setValue(password);
        return form.getOneHtmlElementByAttribute("button", "type", "submit").click();
    }

    static HtmlPage signIn(WebClient web, String base) throws IOException {
        return signIn(web, base, TestApp.ADMIN_PASSWORD);
    }

    static String path(HtmlPage page) {
        URL url = page.getUrl();
        return url.getPath() + (url.getQuery() == null ? "" : "?" + url.getQuery());
    }

    /** Inserts a group (once) and an account row with the columns the accounts page reads. */
    static void insertAccount(String name, String group, int priority, boolean enabled, String status, boolean archived) {
        try (Connection c = TestDatabase.database().dataSource().getConnection()) {
            long groupId = groupId(c, group);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO accounts (name, group_id, platform, base_url, "
                    + "api_key_cipher, api_key_hint, model_mappings_json, priority, weight, enabled, archived, status, "
                    + "created_at, updated_at) VALUES (?, ?, 'openai-compatible', 'https://relay.example', 'v1:x', "
                    + "'sk-…abcd', '[]', ?, 10, ?, ?, ?, NOW(3), NOW(3))")) {
                ps.setString(1, name);
                ps.setLong(2, groupId);
                ps.setInt(3, priority);
                ps.setBoolean(4, enabled);
                ps.setBoolean(5, archived);
                ps.setString(6, status);
                ps.executeUpdate();
            }
            // D-4: a key that does not decrypt makes the account config_error, so seal a real one under its id
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT LAST_INSERT_ID()");
                    PreparedStatement ps = c.prepareStatement("UPDATE accounts SET api_key_cipher = ? WHERE id = ?")) {
                rs.next();
                long id = rs.getLong(1);
                ps.setString(1, new SecretBox(TestApp.MASTER_KEY).seal("sk-test-abcd", id));
                ps.setLong(2, id);
                ps.executeUpdate();
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long groupId(Connection c, String group) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT IGNORE INTO groups_ (name, created_at, updated_at) "
                + "VALUES (?, NOW(3), NOW(3))")) {
            ps.setString(1, group);
            ps.executeUpdate();
        }
        try (Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT id FROM groups_ WHERE name = '" + group.replace("'", "") + "'")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
