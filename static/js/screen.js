/* The big screen: page long tables to fit the screen, turning pages every 10 seconds.
 *
 * Each <table data-page="name"> inside #screen-live is cut into pages of whole rows
 * that fit between the table's top and the bottom of the window; a page indicator
 * (<span data-pager="name">) says "1/3". htmx replaces #screen-live when something
 * changed (see tournaments.pages.screen_live); the pages are then cut again and each
 * table stays on the page it was showing. On a narrow screen the panels are stacked
 * and the page simply scrolls: nothing is hidden.
 */
(function () {
  "use strict";
  // gettext/interpolate come from /jsi18n/ (base.html); English if it failed to load.
  var gettext = window.gettext || function (s) { return s; };
  var interpolate = window.interpolate || function (fmt, obj) {
    return fmt.replace(/%\(\w+\)s/g, function (m) { return String(obj[m.slice(2, -2)]); });
  };
  var TURN_MS = 10000;
  var NARROW = 900;
  var current = {}; // table name -> page index shown

  function rowsOf(table) {
    return Array.prototype.slice.call(table.tBodies[0] ? table.tBodies[0].rows : []);
  }

  function cut(table) {
    var rows = rowsOf(table);
    rows.forEach(function (r) { r.hidden = false; });
    if (window.innerWidth <= NARROW || rows.length === 0) {
      return [rows];
    }
    var top = table.tBodies[0].getBoundingClientRect().top + window.scrollY;
    var room = window.innerHeight - top - 56; // keep the footer line in view
    var pages = [[]];
    var used = 0;
    rows.forEach(function (r) {
      var h = r.getBoundingClientRect().height;
      if (pages[pages.length - 1].length && used + h > room) {
        pages.push([]);
        used = 0;
      }
      pages[pages.length - 1].push(r);
      used += h;
    });
    return pages;
  }

  function show(name, table, pages) {
    var index = (current[name] || 0) % pages.length;
    current[name] = index;
    pages.forEach(function (page, i) {
      page.forEach(function (r) { r.hidden = i !== index; });
    });
    var pager = document.querySelector('[data-pager="' + name + '"]');
    if (pager) {
      pager.textContent = pages.length > 1
        ? interpolate(gettext("page %(page)s of %(pages)s"),
          { page: index + 1, pages: pages.length }, true)
        : "";
    }
  }

  function layout(advance) {
    var tables = document.querySelectorAll("#screen-live table[data-page]");
    Array.prototype.forEach.call(tables, function (table) {
      var name = table.getAttribute("data-page");
      var pages = cut(table);
      if (advance) {
        current[name] = ((current[name] || 0) + 1) % pages.length;
      }
      show(name, table, pages);
    });
  }

  document.addEventListener("DOMContentLoaded", function () { layout(false); });
  document.addEventListener("htmx:afterSettle", function () { layout(false); });
  window.addEventListener("resize", function () { layout(false); });
  window.setInterval(function () { layout(true); }, TURN_MS);
})();
