// The score-link sheet's Copy and Print buttons: shown only where the browser can do
// it (progressive enhancement; without JavaScript the links are plain text to select).
(function () {
  "use strict";
  // gettext comes from /jsi18n/ (base.html); English if it failed to load.
  var gettext = window.gettext || function (s) { return s; };
  function ready() {
    if (navigator.clipboard && window.isSecureContext) {
      document.querySelectorAll("button.copy[data-copy]").forEach(function (button) {
        button.hidden = false;
        button.addEventListener("click", function () {
          navigator.clipboard.writeText(button.dataset.copy).then(function () {
            button.textContent = gettext("Copied");
            button.classList.add("copied");
            setTimeout(function () {
              button.textContent = gettext("Copy link");
              button.classList.remove("copied");
            }, 2000);
          });
        });
      });
    }
    document.querySelectorAll("button.print-sheet").forEach(function (button) {
      button.hidden = false;
      button.addEventListener("click", function () { window.print(); });
    });
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", ready);
  } else {
    ready();
  }
})();
