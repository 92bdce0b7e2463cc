/* Detour console: the account cooldown badge counts down (U-2) and open panels survive the 5 s refresh. */
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

  var openPanels = [];
  document.addEventListener('htmx:beforeSwap', function () {
    openPanels = [];
    var open = document.querySelectorAll('details[open][id]');
    for (var i = 0; i < open.length; i++) {
      openPanels.push(open[i].id);
    }
  });
  document.addEventListener('htmx:afterSwap', function () {
    for (var i = 0; i < openPanels.length; i++) {
      var el = document.getElementById(openPanels[i]);
      if (el) {
        el.setAttribute('open', '');
      }
    }
    paint();
    tick(Date.now());
  });

  document.addEventListener('DOMContentLoaded', function () {
    paint();
    tick(Date.now());
  });
  setInterval(function () { tick(Date.now()); }, 1000);
})();
