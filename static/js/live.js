/* Live pages (docs/live.md): refetch a page's live parts when the server says
 * something changed, and poll them while the live connection is down.
 *
 * A live root (<div data-live-root hx-ext="sse" sse-connect="/live/stream/?channel=...">)
 * holds the connection (the htmx SSE extension opens it). Each live part inside has
 * hx-trigger="sse:changed, live:poll": htmx refetches it on a notice. When the
 * connection errors and is not back within a moment, the root gets the class
 * "live-offline", its badge ("offline: updating every N s") is shown, and every live
 * part is sent "live:poll" every N seconds (data-live-poll) until the connection opens
 * again. A part holding the focus of a field being typed in is not replaced: its
 * refresh waits until the field loses the focus.
 */
(function () {
  "use strict";
  var GRACE_MS = 1500; // a stream that ends on purpose reconnects within about a second

  function parts(root) {
    return root.querySelectorAll("[data-live-part]");
  }

  function poll(root) {
    parts(root).forEach(function (part) { htmx.trigger(part, "live:poll"); });
  }

  function setOffline(root, offline) {
    var badge = root.querySelector("[data-live-badge]");
    root.classList.toggle("live-offline", offline);
    if (badge) { badge.hidden = !offline; }
    if (offline && !root._livePoller) {
      var seconds = parseInt(root.getAttribute("data-live-poll") || "5", 10);
      poll(root); // catch up at once with what was missed
      root._livePoller = window.setInterval(function () { poll(root); }, seconds * 1000);
    } else if (!offline && root._livePoller) {
      window.clearInterval(root._livePoller);
      root._livePoller = null;
    }
  }

  document.addEventListener("htmx:sseOpen", function (evt) {
    var root = evt.target.closest("[data-live-root]");
    if (!root) { return; }
    window.clearTimeout(root._liveGrace);
    var wasOffline = root.classList.contains("live-offline");
    setOffline(root, false);
    root.setAttribute("data-live-state", "online");
    if (wasOffline) { poll(root); } // one last fetch: nothing between poll and open is lost
  });

  document.addEventListener("htmx:sseError", function (evt) {
    var root = evt.target.closest("[data-live-root]");
    if (!root) { return; }
    window.clearTimeout(root._liveGrace);
    root._liveGrace = window.setTimeout(function () {
      var source = htmx.createEventSource && root["htmx-internal-data"] &&
        root["htmx-internal-data"].sseEventSource;
      if (!source || source.readyState !== EventSource.OPEN) {
        setOffline(root, true);
        root.setAttribute("data-live-state", "offline");
      }
    }, GRACE_MS);
  });

  // Never replace a part while someone types in it; refresh it when they leave it.
  document.addEventListener("htmx:beforeRequest", function (evt) {
    var part = evt.detail.elt;
    if (!part.hasAttribute || !part.hasAttribute("data-live-part")) { return; }
    var active = document.activeElement;
    if (active && part.contains(active) && active.matches("input, select, textarea")) {
      evt.preventDefault();
      active.addEventListener("blur", function () {
        window.setTimeout(function () { htmx.trigger(part, "live:poll"); }, 0);
      }, { once: true });
    }
  });
})();
