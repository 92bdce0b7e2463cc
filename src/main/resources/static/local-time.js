/* U-10: times in the viewer's own zone and language. The server writes each <time class="local-time"> in UTC
   (what a reader without scripts sees) with its instant in datetime; this rewrites the text where the browser
   knows its zone: data-format="clock" → 20:41, "datetime" → Dec 1, 20:41:03 (the year only when not this
   year), keeping the UTC text as the tooltip. Runs again after an htmx swap brings new times. */
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

  document.addEventListener('DOMContentLoaded', function () { localise(document); });
  document.addEventListener('htmx:afterSwap', function (e) { localise(e.target); });
})();
