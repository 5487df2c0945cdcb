// The door page's search: the rows whose name holds what is typed stay, the others hide,
// as the director types (no request). Without JavaScript the search button asks the
// server for the same rows (?q=), and each Paid button is a plain form.
(function () {
  "use strict";
  function ready() {
    var input = document.getElementById("door-q");
    var list = document.getElementById("door-list");
    var none = document.querySelector(".door-none");
    if (!input || !list) return;
    var go = document.querySelector(".door-search-go");
    if (go) go.hidden = true;
    input.form.addEventListener("submit", function (event) { event.preventDefault(); });
    function filter() {
      var query = input.value.trim().toLowerCase();
      var shown = 0;
      list.querySelectorAll("li.door-row").forEach(function (row) {
        var keep = !query || (row.dataset.name || "").indexOf(query) !== -1;
        row.hidden = !keep;
        if (keep) shown += 1;
        row.querySelectorAll('input[name="q"]').forEach(function (q) { q.value = input.value; });
      });
      if (none) none.hidden = shown !== 0;
      count("total", list.querySelectorAll("li.door-row").length);
      count("square", list.querySelectorAll("li.door-row.is-paid").length);
      count("owing", list.querySelectorAll("li.door-row .owed").length);
    }
    function count(name, value) {
      var span = document.querySelector('[data-count="' + name + '"]');
      if (span) span.textContent = String(value);
    }
    input.addEventListener("input", filter);
    // a row swapped in after a payment (htmx replaces the li, then settles its class)
    // keeps the current search, and the counts follow it
    new MutationObserver(filter).observe(list, {
      childList: true,
      subtree: true,
      attributes: true,
      attributeFilter: ["class"],
    });
    filter();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", ready);
  } else {
    ready();
  }
})();
