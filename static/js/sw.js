/* Boxcars' service worker, served at /sw.js by games/pages/offline_app.py with two lines
   in front: self.BOXCARS_RELEASE (the release) and self.BOXCARS_SHELL (the static files
   of the shell).

   Hand-written rather than Workbox: Workbox is an npm build step (workbox-build or its
   CLI writing a precache manifest) or a CDN import, and this project ships plain static
   files with no JavaScript build. What we need is small: precache the shell under a
   cache named after the release, keep the player pages a player visited (network first,
   the stored copy only when the network fails), delete the old release's caches on
   activate, and send the offline queue on Background Sync.

   Directors' pages are never stored: only pages that mark themselves as player pages
   (<body data-offline-page>) are kept, so a director's page offline is the browser's
   offline error, as the docs say. */
/* global importScripts, BoxcarsQueue */
"use strict";

const RELEASE = self.BOXCARS_RELEASE || "dev";
const SHELL = self.BOXCARS_SHELL || [];
const PREFIX = "boxcars-";
const SHELL_CACHE = PREFIX + "shell-" + RELEASE;
const PAGES_CACHE = PREFIX + "pages-" + RELEASE;
const PAGE_MARK = "data-offline-page";

// Push notifications live in push-sw.js; one worker per scope, so this one carries them.
importScripts(...(self.BOXCARS_IMPORTS || ["/static/js/push-sw.js", "/static/js/offline-queue.js"]));

// The player pages a phone may open offline: home, a match's entry page, a score link.
const PLAYER_PAGES = [/^\/$/, /^\/matches\/\d+\/enter\/$/, /^\/score\/[^/]+\/$/];

function isPlayerPage(url) {
  return url.origin === self.location.origin && PLAYER_PAGES.some((re) => re.test(url.pathname));
}

function isShellAsset(url) {
  return url.origin === self.location.origin &&
    (url.pathname.startsWith("/static/") || url.pathname === "/jsi18n/");
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(SHELL_CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting())
  );
});

// A new release keeps the pages the phone had kept under the old one: each is fetched
// again into the new release's cache (its scripts and styles are the new shell's), or,
// if that fails, its old copy is carried over. Deleting them with the old release's
// caches made the home page visited yesterday fail offline after a deploy (issue 41):
// the new worker only kept the page open as it took over.
async function carryOverPages(oldNames) {
  const kept = await caches.open(PAGES_CACHE);
  for (const name of oldNames.filter((n) => n.startsWith(PREFIX + "pages-"))) {
    const old = await caches.open(name);
    for (const request of await old.keys()) {
      if (await kept.match(request.url)) continue;
      const fresh = await playerPage(new Request(request.url, { credentials: "same-origin" }))
        .catch(() => null);
      if (fresh && (await kept.match(request.url))) continue;
      if (!fresh || fresh.status >= 500) {
        // offline, or the server down: the old copy beats nothing
        const copy = await old.match(request);
        if (copy) await kept.put(request.url, copy);
      }
    }
  }
}

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => names.filter((name) =>
        name.startsWith(PREFIX) && name !== SHELL_CACHE && name !== PAGES_CACHE))
      .then((old) => carryOverPages(old).catch(() => null).then(() => old))
      .then((old) => Promise.all(old.map((name) => caches.delete(name))))
      .then(() => self.clients.claim())
      .then(() => self.clients.matchAll({ type: "window" }))
      .then((windows) => Promise.all(windows.map((w) => {
        w.postMessage({ type: "release", release: RELEASE });
        // the page that installed the worker was loaded before it: keep it now
        const url = new URL(w.url);
        return isPlayerPage(url) ? playerPage(new Request(url.href)).catch(() => null) : null;
      })))
  );
});

// A player page: the network first; its answer is kept when it is a player's page, and
// the kept copy answers when the network fails. The page itself says "offline, last
// updated ..." from the time it was rendered (offline.js).
async function playerPage(request) {
  const cache = await caches.open(PAGES_CACHE);
  const key = new URL(request.url);
  key.search = "";
  try {
    const response = await fetch(request);
    if (response.status >= 500) {
      // The server is down, not the phone: the kept copy says more than an error page.
      const kept = await cache.match(key.href);
      return kept || response;
    }
    const html = (response.headers.get("Content-Type") || "").includes("text/html");
    if (response.ok && html && (await response.clone().text()).includes(PAGE_MARK)) {
      await cache.put(key.href, response.clone());
    } else {
      // signed out, an expired score link (403), a match that is gone: forget the copy
      await cache.delete(key.href);
    }
    return response;
  } catch (error) {
    const kept = await cache.match(key.href);
    if (kept) return kept;
    throw error;
  }
}

// The shell's files: the release's copy first (a new release is a new cache), else the
// network, kept for next time.
async function shellAsset(request) {
  const cache = await caches.open(SHELL_CACHE);
  const kept = await cache.match(request, { ignoreSearch: false });
  if (kept) return kept;
  const response = await fetch(request);
  if (response.ok) await cache.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return; // writes go to the network (the queue retries)
  const url = new URL(request.url);
  if (request.mode === "navigate" && isPlayerPage(url)) {
    event.respondWith(playerPage(request));
  } else if (isShellAsset(url)) {
    event.respondWith(shellAsset(request));
  }
  // Everything else (the API, directors' pages, live streams) is left to the network.
});

// Background Sync, where the browser has it (not on iPhones): the pages also send the
// queue on "online" and when they open, so this is a help, never the only way.
self.addEventListener("sync", (event) => {
  if (event.tag === BoxcarsQueue.SYNC_TAG) {
    event.waitUntil(BoxcarsQueue.flush().then((outcome) => {
      if (!outcome.changed) return undefined;
      return self.clients.matchAll({ type: "window" }).then((windows) =>
        windows.forEach((w) => w.postMessage({ type: "queue" })));
    }));
  }
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "release?") {
    event.source.postMessage({ type: "release", release: RELEASE });
  }
});
