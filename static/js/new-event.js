// The new-event form: show only the fieldsets of the chosen format. Without JavaScript
// every fieldset shows (each says which format it serves) and the server ignores the
// fields of other formats; with it, the others are hidden and disabled (not sent).
(function () {
  function setUp() {
    const form = document.getElementById("new-event");
    if (!form) return;
    const select = form.querySelector("select[name=format]");
    function show() {
      form.querySelectorAll("fieldset[data-formats]").forEach(function (fieldset) {
        const on = fieldset.dataset.formats.split(" ").indexOf(select.value) >= 0;
        fieldset.hidden = !on;
        fieldset.disabled = !on;
      });
      form.classList.add("by-format");
    }
    select.addEventListener("change", show);
    show();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
})();
