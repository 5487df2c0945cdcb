/* The offline queue: score entries made without a network, kept in IndexedDB and sent
   in order to the JSON API when the network returns. Loaded by the pages (offline.js)
   and by the service worker (Background Sync), so it touches no DOM.

   One record per entry (a game, a final score, a confirmation, a dispute):
     {id, match, kind, url, body, key, ifMatch, chained, number, link, csrf, names,
      madeAt, status, code, detail, server, etag, replayed}
   - key: the Idempotency-Key, a UUID made when the entry is made: a send whose answer was
     lost is sent again with the same key and the server answers the first response.
   - ifMatch: the match version the entry was made against (If-Match). An entry made
     behind another queued entry of the same match is "chained": it is sent with the
     version the server gave its predecessor, so three games made offline go in as
     three writes, and a write by anyone else in between is a 412, never overwritten.
   - status: waiting, sent, conflict (412, or 409 game_already_recorded: the page asks
     the player), refused (the server said no, with its reason: the player reads it).
   Sending holds a Web Lock where the browser has one, so a page and the worker never
   send the queue at the same time (if they did, the keys would still record each entry
   once). */
(function (scope) {
  "use strict";

  var DB_NAME = "boxcars-offline";
  var STORE = "entries";
  var SYNC_TAG = "boxcars-queue";

  function open() {
    return new Promise(function (resolve, reject) {
      var request = scope.indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = function () {
        var store = request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
        store.createIndex("match", "match");
      };
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function run(mode, work) {
    return open().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var result;
        Promise.resolve(work(tx.objectStore(STORE))).then(function (value) { result = value; });
        tx.oncomplete = function () { db.close(); resolve(result); };
        tx.onerror = function () { db.close(); reject(tx.error); };
      });
    });
  }

  function asPromise(request) {
    return new Promise(function (resolve, reject) {
      request.onsuccess = function () { resolve(request.result); };
      request.onerror = function () { reject(request.error); };
    });
  }

  function all() {
    return run("readonly", function (store) { return asPromise(store.getAll()); })
      .then(function (rows) { return rows.sort(function (a, b) { return a.id - b.id; }); });
  }

  function list(matchId) {
    return all().then(function (rows) {
      return matchId == null ? rows : rows.filter(function (r) { return r.match === matchId; });
    });
  }

  function put(record) {
    return run("readwrite", function (store) { return asPromise(store.put(record)); });
  }

  function remove(id) {
    return run("readwrite", function (store) { return asPromise(store.delete(id)); });
  }

  function uuid() {
    if (scope.crypto && scope.crypto.randomUUID) return scope.crypto.randomUUID();
    var bytes = scope.crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); });
    return hex.slice(0, 4).join("") + "-" + hex.slice(4, 6).join("") + "-" +
      hex.slice(6, 8).join("") + "-" + hex.slice(8, 10).join("") + "-" + hex.slice(10).join("");
  }

  /* Queue an entry. It is chained to the last entry of its match still waiting (or in
     conflict): the server's answer to that one gives this one its If-Match. */
  function add(entry) {
    return list(entry.match).then(function (rows) {
      var ahead = rows.filter(function (r) { return r.status === "waiting" || r.status === "conflict"; });
      var record = Object.assign({
        key: uuid(), madeAt: Date.now(), status: "waiting", chained: ahead.length > 0,
      }, entry);
      if (record.chained) record.ifMatch = null;
      return put(record).then(function (id) { record.id = id; return record; });
    });
  }

  function matchClosed(match) {
    return match.status === "void" || match.status === "forfeit" ||
      (match.status === "finished" && match.confirmation === "confirmed");
  }

  function closedReason(match, record) {
    if (record.link) return "link_expired";
    return match.status === "void" || match.status === "forfeit" ? "match_closed" : "result_confirmed";
  }

  function headersFor(record, csrf) {
    var headers = { "Content-Type": "application/json", "Idempotency-Key": record.key };
    if (record.ifMatch != null) headers["If-Match"] = '"' + record.ifMatch + '"';
    if (csrf || record.csrf) headers["X-CSRFToken"] = csrf || record.csrf;
    if (record.link) headers["X-Score-Link"] = record.link;
    return headers;
  }

  function readMatch(id, record) {
    var headers = record && record.link ? { "X-Score-Link": record.link } : {};
    return scope.fetch("/api/v1/matches/" + id + "/", { credentials: "same-origin", headers: headers, cache: "no-store" })
      .then(function (response) {
        if (response.status === 404) return { gone: true };
        if (!response.ok) throw new Error("unavailable");
        return response.json();
      });
  }

  function sameGame(mine, theirs) {
    if (!theirs) return false;
    var owner = mine.cube_owner || (mine.cube === 1 ? "centre" : "unknown");
    return theirs.winner === mine.winner && theirs.cube === mine.cube &&
      (theirs.level || "single") === (mine.level || "single") &&
      (theirs.ending || "played") === (mine.ending || "played") &&
      (theirs.cube_owner === owner || owner === "unknown");
  }

  function serverGame(match, number) {
    return (match.games || []).filter(function (g) { return g.number === number; })[0] || null;
  }

  function versionOf(response, body) {
    var tag = response.headers.get("ETag");
    if (tag) return parseInt(tag.replace(/[^0-9]/g, ""), 10);
    return body && typeof body.version === "number" ? body.version : null;
  }

  /* After an entry is settled, the next chained entry of its match either gets the
     version the server answered (sent) or is refused with it (a refused or replaced
     predecessor: it was made on top of something that did not happen). */
  function settleFollowers(rows, record, version, refusal) {
    var next = rows.filter(function (r) {
      return r.match === record.match && r.id > record.id && r.status === "waiting";
    })[0];
    if (!next || !next.chained) return Promise.resolve();
    if (refusal) {
      next.status = "refused";
      next.code = "after_refused_entry";
      next.detail = refusal;
      return put(next).then(function () { return settleFollowers(rows, next, null, refusal); });
    }
    next.chained = false;
    next.ifMatch = version;
    return put(next);
  }

  function worthOf(game) {
    if (game.points) return game.points;
    if (game.ending === "dropped") return game.cube || 1;
    return (game.cube || 1) * ({ single: 1, gammon: 2, backgammon: 3 }[game.level] || 1);
  }

  /* The player settled an entry that was in conflict (kept the server's, entered theirs
     as a later game, disputed): the entries queued behind it were made on top of the
     player's version, so each is re-based on the server's record instead of refused.
     A game takes the next number the server has free, with the score before it counted
     from the server's games (kept as rebased: {number, was, score}, for the page's
     words); a game the server already holds under its number is compared as on a
     conflict (the same: sent; another: a new conflict for the player, and what follows
     waits behind it); a game after the match ended on the server is refused in words.
     A confirmation or final score was made for a score that no longer stands: it is
     refused in words, to be made again. A dispute follows as it was.
     options.behind: an entry (the player's replacement) waits ahead, worth
     options.ahead points to options.aheadWinner; the first re-based entry is chained
     to it. Resolves to the records as re-based. */
  function rebase(matchId, afterId, server, options) {
    options = options || {};
    var ids = [server.player1 && server.player1.id, server.player2 && server.player2.id];
    var score = (server.score || [0, 0]).slice();
    var next = server.next_game || null;
    var length = server.length || 0;
    var chained = !!options.behind;
    if (options.behind && options.ahead) {
      score[ids.indexOf(options.aheadWinner)] += options.ahead;
      next = next == null ? null : next + 1;
    }
    var blocked = false;
    function over() { return next == null || (length > 0 && (score[0] >= length || score[1] >= length)); }
    return list(matchId).then(function (rows) {
      var later = rows.filter(function (r) { return r.id > afterId && r.status === "waiting"; });
      var done = [];
      var step = function (i) {
        if (i >= later.length) return Promise.resolve(done);
        var r = later[i];
        if (blocked) {
          r.chained = true; // behind a new conflict: re-based once the player settles it
        } else if (r.kind === "game") {
          var theirs = serverGame(server, r.number);
          if (theirs && sameGame(r.body, theirs)) {
            r.status = "sent";
            r.same = true;
            r.etag = server.version;
            chained = false;
          } else if (theirs) {
            r.status = "conflict";
            r.code = "game_already_recorded";
            r.detail = "";
            r.server = server;
            blocked = true;
          } else if (over()) {
            r.status = "refused";
            r.code = "match_over_on_server";
            r.detail = "";
            r.server = server;
          } else {
            r.rebased = { number: next, was: r.number, score: score.slice() };
            r.number = next;
            r.body = Object.assign({}, r.body, { number: next });
            var side = ids.indexOf(r.body.winner);
            if (side >= 0) score[side] += worthOf(r.body);
            next += 1;
            r.chained = chained;
            r.ifMatch = chained ? null : server.version;
            chained = true;
          }
        } else if (r.kind === "confirm" || r.kind === "final") {
          r.status = "refused";
          r.code = "made_on_replaced_score";
          r.detail = "";
          r.server = server;
        } else {
          r.chained = chained;
          r.ifMatch = chained ? null : server.version;
          chained = true;
        }
        done.push(r);
        return put(r).then(function () { return step(i + 1); });
      };
      return step(0);
    });
  }

  function parseJson(response) {
    return response.text().then(function (text) {
      try { return text ? JSON.parse(text) : {}; } catch (e) { return {}; }
    });
  }

  /* Send one match's waiting entries in order; stop at the first that cannot go now. */
  function sendMatch(matchId, rows, csrf, outcome) {
    var mine = rows.filter(function (r) { return r.match === matchId; });
    if (mine.some(function (r) { return r.status === "conflict"; })) return Promise.resolve(true);
    var waiting = mine.filter(function (r) { return r.status === "waiting"; });
    if (!waiting.length) return Promise.resolve(true);
    // Nothing stale is trusted: read the match as it is now before sending anything.
    return readMatch(matchId, waiting[0]).then(function (match) {
      if (match.gone || matchClosed(match)) {
        outcome.changed = true;
        return Promise.all(waiting.map(function (r) {
          r.status = "refused";
          r.code = match.gone ? "match_gone" : closedReason(match, r);
          r.server = match.gone ? null : match;
          return put(r);
        })).then(function () { return true; });
      }
      var step = function (index) {
        if (index >= waiting.length) return Promise.resolve(true);
        var record = waiting[index];
        if (record.status !== "waiting") return step(index + 1);
        if (record.chained) return Promise.resolve(true); // its predecessor is not settled
        return scope.fetch(record.url, {
          method: "POST", credentials: "same-origin", headers: headersFor(record, csrf),
          body: JSON.stringify(record.body),
        }).then(function (response) {
          return parseJson(response).then(function (body) {
            var status = response.status;
            if (status >= 200 && status < 300) {
              record.status = "sent";
              record.replayed = response.headers.get("Idempotent-Replayed") === "true";
              record.etag = versionOf(response, body);
              record.sentAt = Date.now();
              outcome.changed = true;
              return put(record).then(function () {
                return settleFollowers(rows, record, record.etag, null);
              }).then(function () { return step(index + 1); });
            }
            if (status === 429 || status >= 500) return false; // later, with the same key
            if (status === 401) { record.code = "not_authenticated"; return put(record).then(function () { return false; }); }
            var conflict = status === 412 || (status === 409 && body.code === "game_already_recorded");
            if (conflict) {
              return readMatch(matchId, record).then(function (now) {
                outcome.changed = true;
                if (record.kind === "game" && sameGame(record.body, serverGame(now, record.number))) {
                  record.status = "sent";
                  record.same = true; // the opponent recorded the very same game
                  record.etag = now.version;
                  return put(record).then(function () {
                    return settleFollowers(rows, record, now.version, null);
                  }).then(function () { return step(index + 1); });
                }
                record.status = "conflict";
                record.code = body.code || (status === 412 ? "precondition_failed" : "conflict");
                record.detail = body.detail || "";
                record.server = now;
                return put(record).then(function () { return true; });
              });
            }
            record.status = "refused";
            record.code = body.code || "refused";
            record.detail = body.detail || "";
            outcome.changed = true;
            return put(record).then(function () {
              return settleFollowers(rows, record, null, record.detail || record.code);
            }).then(function () { return step(index + 1); });
          });
        });
      };
      return step(0);
    });
  }

  /* Send every waiting entry, match by match, oldest first. Resolves {changed, offline}:
     offline when the network failed (the entries wait, with their keys, for next time). */
  function flushNow(csrf) {
    var outcome = { changed: false, offline: false };
    return all().then(function (rows) {
      var matches = [];
      rows.forEach(function (r) {
        if (r.status === "waiting" && matches.indexOf(r.match) < 0) matches.push(r.match);
      });
      var next = function (i) {
        if (i >= matches.length) return Promise.resolve(outcome);
        return sendMatch(matches[i], rows, csrf, outcome).then(function (goOn) {
          return goOn ? next(i + 1) : outcome;
        });
      };
      return next(0);
    }).catch(function () {
      outcome.offline = true;
      return outcome;
    });
  }

  function flush(csrf) {
    var locks = scope.navigator && scope.navigator.locks;
    if (locks && locks.request) {
      return locks.request("boxcars-queue", function () { return flushNow(csrf); });
    }
    return flushNow(csrf);
  }

  scope.BoxcarsQueue = {
    SYNC_TAG: SYNC_TAG, add: add, list: list, put: put, remove: remove, flush: flush,
    uuid: uuid, readMatch: readMatch, serverGame: serverGame, rebase: rebase,
  };
})(self);
