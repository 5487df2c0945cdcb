// Progressive enhancement of the chouette pages (htmx swaps <main>; see sheet.html).
// htmx leaves 4xx answers unswapped by default; a refused game answers 400 with the
// form and the rule that refused it, which is exactly what the table must see.
document.addEventListener("htmx:beforeSwap", function (event) {
  var elt = event.detail.requestConfig && event.detail.requestConfig.elt;
  if (event.detail.xhr.status === 400 && elt && elt.closest(".chouette")) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
document.addEventListener("htmx:afterSwap", function () {
  var alert = document.querySelector(".chouette .error-box");
  if (alert) alert.scrollIntoView({block: "center"});
});
