/* Detour console: countdown badges (U-2 cooldown, C-6 breaker, S-9 group halt), open panels survive the 5 s
   refresh, and the edit drawer opens as a side panel (U-4). */
(function () {
  'use strict';

  /* data-cooldown-seconds is the server's remaining time when the badge was rendered; data-start is when
     this browser first saw it. Counting from that (not from data-cooldown-until) keeps a skewed browser
     clock from showing wrong numbers. The badge disappears when it reaches 0. */
  function tick(now) {
    var badges = document.querySelectorAll('[data-cooldown-seconds]');
    for (var i = 0; i < badges.length; i++) {
      var el = badges[i];
      if (!el.hasAttribute('data-start')) {
        el.setAttribute('data-start', String(now));
      }
      var elapsed = Math.floor((now - Number(el.getAttribute('data-start'))) / 1000);
      var left = Number(el.getAttribute('data-cooldown-seconds')) - Math.max(0, elapsed);
      if (left <= 0) {
        el.parentNode.removeChild(el);
      } else {
        el.textContent = el.getAttribute('data-label').replace('{0}', String(left));
      }
    }
  }

  /* group colours: CSP forbids inline style attributes, so they come from data-color */
  function paint() {
    var dots = document.querySelectorAll('.dot[data-color]');
    for (var i = 0; i < dots.length; i++) {
      var c = dots[i].getAttribute('data-color');
      if (/^#[0-9a-fA-F]{6}$/.test(c)) {
        dots[i].style.backgroundColor = c;
      }
    }
  }

  window.detourCountdown = function (now) {
    tick(typeof now === 'number' ? now : Date.now());
  };

  /* U-3 hover panel: a closed <details> renders nothing but its summary whatever the CSS says, so hovering
     opens it (marked data-hover) and leaving closes it again; a click on the summary while hover-opened
     pins it open instead of toggling it shut. Without JS the summary still expands it on click. */
  function panelOf(node) {
    return node && node.closest ? node.closest('details.panel-wrap') : null;
  }
  document.addEventListener('mouseover', function (e) {
    var wrap = panelOf(e.target);
    if (wrap && !wrap.open) {
      wrap.setAttribute('data-hover', '');
      wrap.open = true;
    }
  });
  document.addEventListener('mouseout', function (e) {
    var wrap = panelOf(e.target);
    if (wrap && wrap.hasAttribute('data-hover') && panelOf(e.relatedTarget) !== wrap) {
      wrap.removeAttribute('data-hover');
      wrap.open = false;
    }
  });
  document.addEventListener('click', function (e) {
    var summary = e.target.closest ? e.target.closest('details.panel-wrap > summary') : null;
    if (summary && summary.parentNode.hasAttribute('data-hover')) {
      e.preventDefault();
      summary.parentNode.removeAttribute('data-hover');
    }
  });

  var openPanels = [];
  document.addEventListener('htmx:beforeSwap', function () {
    openPanels = [];
    var open = document.querySelectorAll('details[open][id]');
    for (var i = 0; i < open.length; i++) {
      openPanels.push([open[i].id, open[i].hasAttribute('data-hover')]);
    }
  });
  document.addEventListener('htmx:afterSwap', function () {
    for (var i = 0; i < openPanels.length; i++) {
      var el = document.getElementById(openPanels[i][0]);
      if (el) {
        el.setAttribute('open', '');
        if (openPanels[i][1]) {
          el.setAttribute('data-hover', '');
        }
      }
    }
    paint();
    tick(Date.now());
  });

  /* U-4 drawer: an edit link loads the drawer fragment into #drawer-panel; Esc or the close link closes it
     and focus returns to the link that opened it. Without JS the same links open the drawer page. */
  var opener = null;
  function drawerPanel() {
    return document.getElementById('drawer-panel');
  }
  function closeDrawer() {
    var panel = drawerPanel();
    if (!panel || panel.hidden) {
      return;
    }
    panel.hidden = true;
    panel.innerHTML = '';
    document.documentElement.classList.remove('drawer-open');
    var back = opener && document.getElementById(opener);
    if (back) {
      back.focus();
    }
  }
  document.addEventListener('htmx:beforeRequest', function (e) {
    var elt = e.detail.elt;
    if (elt && elt.hasAttribute && elt.hasAttribute('data-drawer-open')) {
      opener = elt.id;
    }
  });
  /* a 422 carries the form again with the errors next to the fields: swap it like a success */
  document.addEventListener('htmx:beforeSwap', function (e) {
    if (e.detail.xhr.status === 422) {
      e.detail.shouldSwap = true;
      e.detail.isError = false;
    }
  });
  document.addEventListener('htmx:load', function (e) {
    var panel = drawerPanel();
    var elt = e.detail.elt;
    if (panel && elt && elt.id === 'drawer' && panel.contains(elt)) {
      panel.hidden = false;
      document.documentElement.classList.add('drawer-open');
      elt.focus();
    }
  });
  /* aria-modal promises that Tab stays inside the open drawer: it wraps from the last field to the first
     and back, and a focus that has wandered outside is brought back in */
  var FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), '
      + 'select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
  function keepTabInside(e, panel) {
    var items = Array.prototype.filter.call(panel.querySelectorAll(FOCUSABLE), function (el) {
      return el.offsetParent !== null || el === document.activeElement;
    });
    if (items.length === 0) {
      return;
    }
    var first = items[0];
    var last = items[items.length - 1];
    var inside = panel.contains(document.activeElement);
    if (!inside || (e.shiftKey && document.activeElement === first) || (!e.shiftKey && document.activeElement === last)) {
      e.preventDefault();
      (e.shiftKey ? last : first).focus();
    }
  }
  document.addEventListener('keydown', function (e) {
    if (e.key === 'Escape' || e.key === 'Esc' || e.keyCode === 27) {
      closeDrawer();
      return;
    }
    var panel = drawerPanel();
    if ((e.key === 'Tab' || e.keyCode === 9) && panel && !panel.hidden) {
      keepTabInside(e, panel);
    }
  });
  document.addEventListener('click', function (e) {
    var panel = drawerPanel();
    if (!panel || panel.hidden) {
      return;
    }
    var close = e.target.closest ? e.target.closest('[data-drawer-close]') : null;
    if ((close && panel.contains(close)) || e.target === panel) {
      e.preventDefault();
      closeDrawer();
    }
  });
  window.detourCloseDrawer = closeDrawer;

  document.addEventListener('DOMContentLoaded', function () {
    paint();
    tick(Date.now());
  });
  setInterval(function () { tick(Date.now()); }, 1000);
})();
