package dev.detour.adapter.web;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.detour.App;
import dev.detour.core.cluster.Heartbeat;
import dev.detour.testkit.TestApp;
import java.time.Duration;
import org.htmlunit.html.DomNode;
import org.htmlunit.html.HtmlPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** G-2 console: the instances page lists the registry (this instance marked, a silent one gone), in English and Chinese. */
class InstancesPageIT extends ConsoleCase {
    private App second;

    @BeforeEach
    void startSecondInstance() {
        gw.clock.advance(Duration.ofSeconds(1));
        second = TestApp.start(gw.clock);
    }

    @AfterEach
    void stopSecondInstance() {
        second.close();
    }

    @Test
    void theInstancesPageListsBothInstancesAndMarksTheSilentOneGone() throws Exception {
        gw.app.instances().beat(gw.clock.instant());
        HtmlPage page = ((org.htmlunit.html.HtmlAnchor) ((HtmlPage) web.getPage(gw.base() + "/"))
                .getAnchorByText("Instances")).click();
        assertEquals("/instances", ConsolePages.path(page));
        assertEquals(2, page.querySelectorAll("#instances-table tr.instance.live").size());
        assertTrue(page.getElementById("instances-share").getTextContent().contains("2 live Detour instance(s)"));
        DomNode self = row(page, gw.app.instances().selfId());
        assertNotNull(self.querySelector(".self"), "this instance is marked");
        assertEquals("127.0.0.1:" + gw.app.port(), self.querySelector(".address").getTextContent());
        assertNull(row(page, second.instances().selfId()).querySelector(".self"));

        second.instances().stopLoop();
        gw.clock.advance(Heartbeat.GONE_AFTER.plusSeconds(1));
        gw.app.instances().beat(gw.clock.instant());
        HtmlPage later = web.getPage(gw.base() + "/instances");
        DomNode gone = row(later, second.instances().selfId());
        assertTrue(((org.htmlunit.html.HtmlElement) gone).getAttribute("class").contains("gone"));
        assertEquals("Gone", gone.querySelector(".state").getTextContent().trim());
        assertEquals("Live", row(later, gw.app.instances().selfId()).querySelector(".state").getTextContent().trim());
        assertTrue(later.getElementById("instances-share").getTextContent().contains("1 live Detour instance(s)"));

        HtmlPage chinese = ((HtmlPage) later).getAnchorByText("中文").click();
        assertEquals("实例", chinese.querySelector("main h1").getTextContent());
        assertEquals("已离开", row(chinese, second.instances().selfId()).querySelector(".state").getTextContent().trim());
        assertEquals("本实例", row(chinese, gw.app.instances().selfId()).querySelector(".self").getTextContent());
    }

    private static DomNode row(HtmlPage page, String id) {
        DomNode row = page.querySelector("#instances-table tr.instance[data-id='" + id + "']");
        assertNotNull(row, "a row for " + id);
        return row;
    }
}
