/* U-10: times in the viewer's own zone and language. The server writes each <time class="local-time"> in UTC
   (what a reader without scripts sees) with its instant in datetime; this rewrites the text where the browser
   knows its zone: data-format="clock" → 20:41, "datetime" → Dec 1, 20:41:03 (the year only when not this
   year), keeping the UTC text as the tooltip. Runs again after an htmx swap brings new times.
   U-8: a chart's clock ticks (svg.axis-chart[data-time-format=clock] text[data-datetime]) and its bars' tooltips
   the same way, and its caption names the viewer's zone; day charts count UTC days and keep their UTC dates. */
(function () {
  'use strict';

  function options(format, date, now) {
    if (format === 'clock') {
      return { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' };
    }
    var o = { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit',
      hourCycle: 'h23' };
    if (date.getFullYear() !== now.getFullYear()) {
      o.year = 'numeric';
    }
    return o;
  }

  function localise(root) {
    var lang = document.documentElement.lang || undefined;
    var now = new Date();
    var times = (root || document).querySelectorAll('time.local-time[datetime]');
    for (var i = 0; i < times.length; i++) {
      var el = times[i];
      var date = new Date(el.getAttribute('datetime'));
      if (isNaN(date.getTime()) || el.hasAttribute('data-localised')) {
        continue;
      }
      try {
        var text = new Intl.DateTimeFormat(lang, options(el.getAttribute('data-format'), date, now)).format(date);
        el.setAttribute('title', el.textContent);
        el.textContent = text;
        el.setAttribute('data-localised', 'true');
      } catch (e) {
        /* no Intl here: the UTC text stays, which is still right */
      }
    }
  }

  function clock(lang, date) {
    return new Intl.DateTimeFormat(lang, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(date);
  }

  function charts(root) {
    var lang = document.documentElement.lang || undefined;
    var svgs = (root || document).querySelectorAll('svg.axis-chart[data-time-format="clock"]');
    for (var i = 0; i < svgs.length; i++) {
      var svg = svgs[i];
      if (svg.hasAttribute('data-localised')) {
        continue;
      }
      try {
        var zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
        var labels = svg.querySelectorAll('text[data-datetime]');
        for (var j = 0; j < labels.length; j++) {
          labels[j].textContent = clock(lang, new Date(labels[j].getAttribute('data-datetime')));
        }
        var bars = svg.querySelectorAll('rect[data-datetime]');
        for (var k = 0; k < bars.length; k++) {
          var title = bars[k].querySelector('title');
          if (title) { /* "09:00: 3" → the local time and the same value */
            var text = title.textContent;
            title.textContent = clock(lang, new Date(bars[k].getAttribute('data-datetime')))
              + text.slice(text.indexOf(': '));
          }
        }
        svg.setAttribute('data-localised', 'true');
        svg.setAttribute('data-zone', zone);
        var caption = svg.parentNode.querySelector('figcaption .unit[data-local-text]');
        if (caption) {
          caption.textContent = caption.getAttribute('data-local-text').replace('{zone}', zone);
        }
      } catch (e) {
        /* no Intl here: the UTC labels and caption stay, which is still right */
      }
    }
  }

  document.addEventListener('DOMContentLoaded', function () { localise(document); charts(document); });
  document.addEventListener('htmx:afterSwap', function (e) { localise(e.target); charts(e.target); });
})();
