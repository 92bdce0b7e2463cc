package dev.detour.adapter.web;

import static dev.detour.adapter.web.AccountsConsoleIT.COOLDOWN;
import static dev.detour.adapter.web.AccountsConsoleIT.ONE_MODEL;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.fake.FakeUpstream;
import dev.detour.testkit.Gateway;
import dev.detour.fake.Reply;
import dev.detour.testkit.TestApp;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The operator console end to end in a real headless Chromium (Debian's /usr/bin/chromium through /usr/bin/chromedriver;
 * Selenium downloads nothing): sign in, a real 429 through the proxy, the cooldown badge arriving by htmx
 * polling and counting down, the hover panel, the drawer as a side panel, no page-level horizontal scroll
 * at 1280 px and 390 px, keyboard reach. Screenshots: target/console-accounts.png and -phone.png. The key
 * holder's /my (U-10) in the viewer's zone at both widths: target/my-routes.png and -phone.png. The dashboard's
 * breakdown charts (U-8, their clock ticks in the viewer's zone) and the key holder's usage (U-9) drawn with axes:
 * target/dashboard-breakdowns.png,
 * target/my-usage.png and -phone.png.
 */
class ConsoleChromiumIT {
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path TARGET = Path.of("target");
    private static final Duration GENEROUS = Duration.ofSeconds(60);
    private Gateway gw;
    private FakeUpstream upstream;
    private ChromeDriver browser;

    @BeforeEach
    void start() throws Exception {
        assumeChromium();
        gw = Gateway.start();
        upstream = FakeUpstream.start();
        browser = chromium();
    }

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (upstream != null) {
            upstream.close();
        }
        if (gw != null) {
            gw.close();
        }
    }

    @Test
    void aRealRateLimitShowsACountingDownBadgeThePanelAndTheDrawerOnDesktopAndPhoneWidths() throws Exception {
        long id = gw.account("relay-a", upstream, ONE_MODEL, COOLDOWN);
        gw.account("relay-b", upstream, ONE_MODEL, "{\"priority\":5}");
        signIn();
        browser.get(gw.base() + "/lang?l=zh&next=/accounts");
        WebElement row = browser.findElement(By.id("account-" + id));
        assertTrue(row.findElements(By.cssSelector(".badge-cooldown")).isEmpty(), "healthy before the failure");
        js("window.detourSamePage = 'yes';");

        upstream.enqueue(Reply.openAiError(429, "rate limited, slow down", "rate_limit_exceeded"));
        assertEquals(200, gw.chat("gpt-x").statusCode(), "relay-b answers after relay-a's 429");

        WebElement badge = wait(GENEROUS).until(ExpectedConditions.presenceOfElementLocated(
                By.cssSelector("#account-" + id + " .badge-cooldown"))); // brought by the 5 s htmx poll
        assertEquals("yes", js("return window.detourSamePage;"), "no page reload");
        int first = seconds(badge.getText());
        assertTrue(badge.getText().startsWith("冷却 ") && badge.getText().endsWith(" 秒"), badge.getText());
        wait(GENEROUS).until(d -> secondsOnBadge(id) < first); // the browser counts down
        assertEquals("错误 1 次", browser.findElement(By.cssSelector("#account-" + id + " .tag")).getText());

        openPanel(id);
        browser.manage().window().setSize(new Dimension(1280, 900));
        assertNoPageScroll("1280 px");
        screenshot("console-accounts.png");
        keyboardReachesTheFilters();
        drawer(id);

        browser.manage().window().setSize(new Dimension(390, 844));
        assertEquals(390L, js("return window.innerWidth;"), "the viewport is phone-wide");
        assertNoPageScroll("390 px");
        screenshot("console-accounts-phone.png");
    }

    @Test
    void theKeyHolderPageReadsAtAGlanceInTheViewersZoneOnDesktopAndPhoneWidths() throws Exception {
        gw.account("relay-a", upstream, ONE_MODEL, COOLDOWN);
        gw.account("relay-b", upstream, ONE_MODEL, "{\"priority\":5}");
        upstream.enqueue(Reply.openAiError(429, "rate limited, slow down", "rate_limit_exceeded"));
        assertEquals(200, gw.chat("gpt-x").statusCode(), "relay-b answers after relay-a's 429");
        gw.events(1);

        browser.get(gw.base() + "/lang?l=zh&next=/my");
        browser.findElement(By.name("key")).sendKeys(gw.key());
        browser.findElement(By.cssSelector("#my-login button[type=submit]")).click();
        WebElement summary = wait(GENEROUS).until(ExpectedConditions.presenceOfElementLocated(By.id("summary-gpt-x")));
        String line = summary.getText();
        assertTrue(line.startsWith("当前由 default / relay-b 提供服务"), line);
        assertTrue(line.contains("default / relay-a") && line.contains("秒后恢复"), line);
        // the expected return, in the browser's zone (chromedriver runs with TZ=Asia/Shanghai), not UTC
        WebElement back = summary.findElement(By.cssSelector("time.local-time"));
        String shanghai = java.time.format.DateTimeFormatter.ofPattern("HH:mm").withZone(java.time.ZoneId.of("Asia/Shanghai"))
                .format(java.time.Instant.parse(back.getAttribute("datetime")));
        assertEquals(shanghai, back.getText());
        WebElement when = browser.findElement(By.cssSelector("#my-requests time.local-time"));
        assertTrue(!when.getText().contains("UTC") && when.getAttribute("title").endsWith("UTC"),
                when.getText() + " / " + when.getAttribute("title"));
        assertEquals(Boolean.FALSE, js("return document.querySelector('#model-gpt-x details.model-routes').open;"),
                "the route tables are folded under the summary");
        assertEquals(1L, js("return document.querySelectorAll('#model-gpt-x .family').length;"),
                "every endpoint has the same routes: one table");

        browser.manage().window().setSize(new Dimension(1280, 900));
        assertNoPageScroll("1280 px");
        screenshot("my-routes.png");
        browser.manage().window().setSize(new Dimension(390, 844));
        assertEquals(390L, js("return window.innerWidth;"), "the viewport is phone-wide");
        assertNoPageScroll("390 px");
        screenshot("my-routes-phone.png");
    }

    @Test
    void theDashboardChartsAndTheKeyHoldersUsageAreDrawnWithAxesOnDesktopAndPhoneWidths() throws Exception {
        gw.account("relay-a", upstream, ONE_MODEL, null);
        for (int i = 0; i < 3; i++) {
            assertEquals(200, gw.chat("gpt-x").statusCode());
        }
        gw.events(3);

        signIn();
        browser.get(gw.base() + "/lang?l=zh&next=/");
        WebElement chart = wait(GENEROUS).until(ExpectedConditions.presenceOfElementLocated(By.id("chart-requests")));
        assertChartDrawn("chart-requests", 3);
        assertChartDrawn("chart-tokens", -1);
        assertEquals("gpt-x", browser.findElement(By.cssSelector("#by-model tr.usage-row .name")).getText());
        // U-8: the clock ticks and the bars' tooltips in the viewer's zone (TZ=Asia/Shanghai, 8 h from UTC), said so
        String caption = chart.findElement(By.tagName("figcaption")).getText();
        assertTrue(caption.contains("Asia/Shanghai") && !caption.contains("UTC"), caption);
        java.time.format.DateTimeFormatter shanghai = java.time.format.DateTimeFormatter.ofPattern("HH:mm")
                .withZone(java.time.ZoneId.of("Asia/Shanghai"));
        List<WebElement> ticks = chart.findElements(By.cssSelector("text.x-label"));
        assertTrue(ticks.size() >= 2, "time ticks: " + ticks.size());
        for (WebElement tick : ticks) {
            assertEquals(shanghai.format(java.time.Instant.parse(tick.getAttribute("data-datetime"))), tick.getText());
        }
        Object firstBar = js("var b = document.querySelector('#chart-requests rect.bar');"
                + "return b.getAttribute('data-datetime') + '|' + b.querySelector('title').textContent;");
        String[] bar = String.valueOf(firstBar).split("\\|");
        assertEquals(shanghai.format(java.time.Instant.parse(bar[0])) + ": 0", bar[1], "the tooltip's time too");
        browser.manage().window().setSize(new Dimension(1280, 900));
        js("document.getElementById('breakdowns').scrollIntoView();");
        assertNoPageScroll("1280 px");
        screenshot("dashboard-breakdowns.png");

        browser.get(gw.base() + "/my");
        browser.findElement(By.name("key")).sendKeys(gw.key());
        browser.findElement(By.cssSelector("#my-login button[type=submit]")).click();
        wait(GENEROUS).until(ExpectedConditions.presenceOfElementLocated(By.id("my-usage")));
        assertEquals("3", browser.findElement(By.cssSelector("#my-usage #usage-totals .requests")).getText());
        assertChartDrawn("chart-tokens", -1);
        assertEquals("gpt-x", browser.findElement(By.cssSelector("#by-model tr.usage-row .name")).getText());
        js("document.getElementById('my-usage').scrollIntoView();");
        assertNoPageScroll("1280 px");
        screenshot("my-usage.png");
        browser.manage().window().setSize(new Dimension(390, 844));
        assertEquals(390L, js("return window.innerWidth;"), "the viewport is phone-wide");
        js("document.getElementById('my-usage').scrollIntoView();");
        assertNoPageScroll("390 px");
        assertTrue(((Number) js("return document.getElementById('chart-tokens').getBoundingClientRect().width;")).doubleValue() <= 390,
                "the chart fits the phone");
        screenshot("my-usage-phone.png");
    }

    /**
     * The chart is laid out (a real box), its axis labels are rendered text with a real width, and its bars add up to
     * {@code total} (when not -1) with at least one bar of visible height.
     */
    private void assertChartDrawn(String id, long total) {
        Object box = js("var r = document.querySelector('#" + id + " svg').getBoundingClientRect(); return r.width * r.height;");
        assertTrue(((Number) box).doubleValue() > 10_000, id + " has no real size: " + box);
        Object labelWidth = js("var t = document.querySelectorAll('#" + id + " text.y-label');"
                + "return t.length === 3 ? t[2].getBBox().width : -1;");
        assertTrue(((Number) labelWidth).doubleValue() > 0, id + ": the y axis top label is drawn");
        Object xLabels = js("return document.querySelectorAll('#" + id + " text.x-label').length;");
        assertTrue(((Number) xLabels).longValue() >= 2 && ((Number) xLabels).longValue() <= 6, id + " x ticks: " + xLabels);
        Object tallest = js("return Math.max.apply(null, Array.from(document.querySelectorAll('#" + id + " rect.bar'))"
                + ".map(function (b) { return b.getBoundingClientRect().height; }));");
        assertTrue(((Number) tallest).doubleValue() > 10, id + ": the tallest bar is visible: " + tallest);
        if (total >= 0) {
            Object sum = js("return Array.from(document.querySelectorAll('#" + id + " rect.bar'))"
                    + ".reduce(function (s, b) { return s + Number(b.getAttribute('data-value')); }, 0);");
            assertEquals(total, ((Number) sum).longValue(), id);
        }
    }

    /** The tbody is swapped every 5 s, so elements are looked up afresh and read in one script. */
    private void openPanel(long id) {
        By summary = By.cssSelector("#panel-" + id + " summary");
        By panel = By.cssSelector("#panel-" + id + " .panel");
        wait(GENEROUS).ignoring(StaleElementReferenceException.class).until(d -> {
            new Actions(d).moveToElement(d.findElement(summary)).perform(); // hover opens it
            return d.findElement(panel).isDisplayed();
        });
        wait(GENEROUS).ignoring(StaleElementReferenceException.class).until(d -> {
            d.findElement(summary).click(); // a click pins it open (tap / keyboard)
            return true;
        });
        new Actions(browser).moveToElement(browser.findElement(By.cssSelector("h1"))).perform();
        assertEquals(Boolean.TRUE, js("return document.getElementById('panel-" + id + "').open;"), "pinned open");
        String line = String.valueOf(js("var l = document.querySelector('#panel-" + id + " .model-line');"
                + "return ['.model-key', '.aliases', '.reason', '.remaining', '.message'].map(function (s) {"
                + "  return l.querySelector(s).textContent.trim(); }).join('|');"));
        String[] parts = line.split("\\|");
        assertEquals(List.of("up-x", "(gpt-x)", "冷却中"), List.of(parts[0], parts[1], parts[2]), line);
        assertTrue(parts[3].startsWith("剩余 ") && parts[4].contains("429"), line);
        assertTrue(browser.findElement(panel).isDisplayed(), "still open after any poll");
    }

    private void keyboardReachesTheFilters() {
        js("document.querySelector('a.brand').focus();"); // start at the page's first link
        List<String> reached = tabThrough(40);
        for (String field : List.of("q", "group", "status", "problems")) {
            assertTrue(reached.contains(field), "Tab reaches the filter field " + field + ": " + reached);
        }
    }

    /** U-4 as a side panel: keyboard-opened, fields reachable by Tab, 故障处理 shows 模型状态, Esc gives focus back. */
    private void drawer(long id) {
        wait(GENEROUS).ignoring(org.openqa.selenium.TimeoutException.class).until(d -> { // focus the edit link and press Enter (again if a poll swapped the row meanwhile)
            js("document.getElementById('edit-" + id + "').focus();");
            new Actions(d).sendKeys(Keys.ENTER).perform();
            return new WebDriverWait(d, Duration.ofSeconds(3)).until(
                    ExpectedConditions.visibilityOfElementLocated(By.id("drawer-panel")));
        });
        WebElement panel = browser.findElement(By.id("drawer-panel"));
        wait(GENEROUS).until(d -> "drawer".equals(js("return document.activeElement.id;")));
        List<String> reached = tabThrough(12);
        assertTrue(reached.contains("name") && reached.contains("base_url"), "Tab reaches the form fields: " + reached);
        for (int i = 0; i < 40; i++) { // aria-modal: Tab and Shift+Tab wrap inside the open drawer
            new Actions(browser).sendKeys(i % 4 == 3 ? Keys.chord(Keys.SHIFT, Keys.TAB) : Keys.TAB).perform();
            assertEquals(Boolean.TRUE, js("return document.getElementById('drawer-panel').contains(document.activeElement);"),
                    "focus left the open drawer after " + (i + 1) + " presses");
        }

        panel.findElement(By.id("tab-failure")).click();
        WebElement status = wait(GENEROUS).until(ExpectedConditions.visibilityOfElementLocated(
                By.cssSelector("#drawer-panel #model-status")));
        assertEquals("模型状态", status.findElement(By.tagName("h2")).getText());
        assertEquals("up-x", status.findElement(By.cssSelector("tr.model-row code")).getText());

        new Actions(browser).sendKeys(Keys.ESCAPE).perform();
        wait(GENEROUS).until(ExpectedConditions.invisibilityOfElementLocated(By.id("drawer-panel")));
        assertEquals("edit-" + id, js("return document.activeElement.id;"), "focus returns to the edit link");
    }

    /** The name (or id) of each element focused by pressing Tab {@code presses} times. */
    private List<String> tabThrough(int presses) {
        List<String> reached = new ArrayList<>();
        for (int i = 0; i < presses; i++) {
            new Actions(browser).sendKeys(Keys.TAB).perform();
            reached.add(String.valueOf(js("var e = document.activeElement; return e.name || e.id || e.tagName;")));
        }
        return reached;
    }

    private void assertNoPageScroll(String width) {
        Object scroll = js("return document.documentElement.scrollWidth;");
        Object inner = js("return window.innerWidth;");
        assertTrue(((Number) scroll).longValue() <= ((Number) inner).longValue(),
                "at " + width + " the page itself scrolls sideways: scrollWidth " + scroll + " > innerWidth " + inner);
    }

    private int secondsOnBadge(long id) {
        List<WebElement> badges = browser.findElements(By.cssSelector("#account-" + id + " .badge-cooldown"));
        try {
            return badges.isEmpty() ? Integer.MAX_VALUE : seconds(badges.get(0).getText());
        } catch (org.openqa.selenium.StaleElementReferenceException swappedMeanwhile) {
            return Integer.MAX_VALUE;
        }
    }

    private static int seconds(String text) {
        Matcher m = Pattern.compile("(\\d+)").matcher(text);
        assertTrue(m.find(), text);
        return Integer.parseInt(m.group(1));
    }

    private void signIn() {
        browser.get(gw.base() + "/login");
        browser.findElement(By.name("username")).sendKeys("admin");
        browser.findElement(By.name("password")).sendKeys(TestApp.ADMIN_PASSWORD);
        browser.findElement(By.cssSelector("form.login button[type=submit]")).click();
        wait(GENEROUS).until(d -> !d.getCurrentUrl().contains("/login"));
    }

    private void screenshot(String name) throws Exception {
        Path shot = browser.getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(shot, TARGET.resolve(name), StandardCopyOption.REPLACE_EXISTING);
        assertTrue(Files.size(TARGET.resolve(name)) > 0);
    }

    private Object js(String script, Object... args) {
        return ((JavascriptExecutor) browser).executeScript(script, args);
    }

    private WebDriverWait wait(Duration timeout) {
        return new WebDriverWait(browser, timeout);
    }

    private static ChromeDriver chromium() throws Exception {
        System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString()); // never Selenium Manager
        Path profile = Files.createDirectories(TARGET.resolve("chromium-profile-" + System.nanoTime()));
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", "--window-size=1280,900", "--user-data-dir=" + profile.toAbsolutePath());
        // a viewer far from UTC, so a time the page shows in UTC instead of the viewer's zone is caught
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort()
                .withEnvironment(java.util.Map.of("TZ", "Asia/Shanghai")).build();
        return new ChromeDriver(service, options);
    }

    /** Skips only when the build could not install Chromium (bin/ensure-chromium wrote why), and says so loudly. */
    private static void assumeChromium() throws Exception {
        Path why = TARGET.resolve("chromium-unavailable.txt");
        String reason = Files.exists(why) ? Files.readString(why).strip() : "missing " + CHROMIUM + " or " + CHROMEDRIVER;
        Assumptions.assumeTrue(Files.isExecutable(CHROMEDRIVER) && Files.isExecutable(CHROMIUM),
                "!!! SKIPPED ConsoleChromiumIT: headless Chromium could not be installed (" + reason
                        + "). Install with: apt-get install -y chromium chromium-driver !!!");
    }
}
