/* The players' offline web app, on the page side (the worker is sw.js, the queue
   offline-queue.js):
   - registers the service worker, and reloads onto a new release's shell when one
     takes over (so no page of an old release keeps posting);
   - says "Offline, last updated 14:32" while the network is gone;
   - on a player's match entry page, takes the entries made offline (a game, the final
     score, a confirmation, a dispute) into the queue instead of posting the form, shows
     them as "waiting to send", and the conflicts and refusals in words with the choices;
   - on the home page, a badge counts the entries waiting;
   - sends the queue when the page opens and on "online" (and asks for Background Sync
     where the browser has it), then reloads to show the server's state.
   Online with nothing queued, the forms post as they always did (and work without
   JavaScript). Strings go through Django's JavaScript catalog (/jsi18n/). */
/* global BoxcarsQueue */
(function () {
  "use strict";
  var gettext = window.gettext || function (s) { return s; };
  var ngettext = window.ngettext || function (one, many, n) { return n === 1 ? one : many; };
  var interpolate = window.interpolate || function (fmt, obj) {
    return fmt.replace(/%\(\w+\)s/g, function (m) { return String(obj[m.slice(2, -2)]); });
  };
  var LEVELS = { single: 1, gammon: 2, backgammon: 3 };
  var root = document.documentElement;
  var RELEASE = root.getAttribute("data-release") || "";

  // ``fmt`` is already translated: every call writes say(gettext("..."), values), so
  // makemessages finds the string (it knows gettext, not say).
  function say(fmt, values) { return interpolate(fmt, values || {}, true); }

  function clock(ms) {
    var d = new Date(ms);
    return ("0" + d.getHours()).slice(-2) + ":" + ("0" + d.getMinutes()).slice(-2);
  }

  function csrf() {
    var field = document.querySelector("[name=csrfmiddlewaretoken]");
    if (field) return field.value;
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) { return ""; }
  }

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text != null) node.textContent = text;
    return node;
  }

  // --- the worker and its releases ---------------------------------------------------------

  function registerWorker() {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.addEventListener("message", function (event) {
      var data = event.data || {};
      if (data.type === "release" && data.release !== RELEASE && navigator.onLine) {
        // A new release took over: this page belongs to the old one. Reload once onto
        // the new shell (the guard stops a loop if the server still sends the old one).
        var guard = "boxcars-reloaded-for";
        if (sessionStorage.getItem(guard) !== data.release) {
          sessionStorage.setItem(guard, data.release);
          location.reload();
        }
      } else if (data.type === "queue") {
        // The worker sent the queue (Background Sync): reload for the server's state if
        // this page still shows entries waiting, else just show what it holds now.
        if (!flushing) afterFlush({ changed: true });
      }
    });
    navigator.serviceWorker.register(root.getAttribute("data-worker") || "/sw.js", { scope: "/" })
      .catch(function () { /* no worker: the queue still works from the page */ });
  }

  function askForSync() {
    if (!("serviceWorker" in navigator)) return;
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.sync) return registration.sync.register(BoxcarsQueue.SYNC_TAG);
      return undefined;
    }).catch(function () { /* Background Sync is a help, never needed */ });
  }

  // --- offline, last updated ---------------------------------------------------------------

  function banner() {
    var node = document.getElementById("offline-banner");
    if (!node) return;
    var rendered = Date.parse(root.getAttribute("data-rendered-at") || "");
    node.textContent = isNaN(rendered)
      ? gettext("Offline")
      : say(gettext("Offline, last updated %(time)s"), { time: clock(rendered) });
    node.hidden = navigator.onLine;
  }

  // --- words for entries --------------------------------------------------------------------

  function points(n) {
    return interpolate(ngettext("%(n)s point", "%(n)s points", n), { n: n }, true);
  }

  function levelName(level) {
    return { single: gettext("single"), gammon: gettext("gammon"),
      backgammon: gettext("backgammon") }[level] || level;
  }

  function gameWorth(game) {
    if (game.points) return game.points;
    if (game.ending === "dropped") return game.cube;
    return (game.cube || 1) * (LEVELS[game.level] || 1);
  }

  function gameWords(game, names) {
    var winner = names[String(game.winner)] || "?";
    if (game.ending === "dropped") {
      return say(gettext("%(winner)s wins %(points)s (double dropped)"),
        { winner: winner, points: points(gameWorth(game)) });
    }
    var values = { winner: winner, points: points(gameWorth(game)), cube: game.cube,
      level: levelName(game.level || "single") };
    return game.cube > 1
      ? say(gettext("%(winner)s wins %(points)s (cube %(cube)s × %(level)s)"), values)
      : say(gettext("%(winner)s wins %(points)s (%(level)s)"), values);
  }

  function entryWords(record) {
    var body = record.body || {};
    if (record.kind === "game") {
      return say(gettext("Game %(number)s: %(game)s."), { number: record.number, game: gameWords(body, record.names || {}) });
    }
    if (record.kind === "final") {
      return say(gettext("Final score %(score1)s–%(score2)s"), { score1: body.score[0], score2: body.score[1] });
    }
    if (record.kind === "confirm") return gettext("Confirmation of the score");
    return say(gettext("Dispute: %(reason)s"), { reason: body.reason || "" });
  }

  // Whole sentences, each through gettext (makemessages finds them; a translation may
  // order "Refused" and the reason as its grammar wants).
  var REFUSALS = {
    result_confirmed: gettext("Refused: the result was confirmed before this entry reached the server; nothing was recorded."),
    link_expired: gettext("Refused: this score link has expired (the result is final); nothing was recorded."),
    match_closed: gettext("Refused: the match was closed (void or forfeit) before this entry reached the server."),
    match_gone: gettext("Refused: this match no longer exists."),
  };

  function refusalWords(record) {
    if (REFUSALS[record.code]) return REFUSALS[record.code];
    if (record.code === "match_over_on_server") {
      var over = (record.server && record.server.score) || [0, 0];
      return say(gettext("Not sent: the match ended on the server at %(score1)s–%(score2)s before this game."),
        { score1: over[0], score2: over[1] });
    }
    if (record.code === "made_on_replaced_score") {
      return gettext("Not sent: it was made for a score that changed when you settled the entry before it. Make it again if it still holds.");
    }
    if (record.code === "after_refused_entry") {
      return say(gettext("Refused: it came after an entry that was not recorded (%(reason)s)."),
        { reason: record.detail });
    }
    return say(gettext("Refused: %(detail)s (%(code)s)"), { detail: record.detail || "", code: record.code });
  }

  // A game re-based on the server's record after the player settled a conflict.
  function rebasedWords(rebased) {
    var values = { number: rebased.number, was: rebased.was,
      score1: rebased.score[0], score2: rebased.score[1] };
    return rebased.was !== rebased.number
      ? say(gettext("re-based on the server's games: now game %(number)s from %(score1)s–%(score2)s (it was game %(was)s)"), values)
      : say(gettext("re-based on the server's games: game %(number)s from %(score1)s–%(score2)s"), values);
  }

  // --- the match entry page -----------------------------------------------------------------

  function entryData(node) {
    var ids = node.getAttribute("data-players").split(",").map(Number);
    var score = node.getAttribute("data-score").split(",").map(Number);
    var namesNode = document.getElementById("winner-names");
    var linkMatch = location.pathname.match(/^\/score\/([^/]+)\/$/);
    return {
      match: Number(node.getAttribute("data-match")),
      version: Number(node.getAttribute("data-version")),
      next: Number(node.getAttribute("data-next")),
      length: Number(node.getAttribute("data-length")),
      crawford: node.getAttribute("data-crawford") === "1",
      crawfordPlayed: node.getAttribute("data-crawford-played") === "1",
      side: Number(node.getAttribute("data-side")),
      ids: ids,
      score: score,
      names: namesNode ? JSON.parse(namesNode.textContent) : {},
      link: linkMatch ? decodeURIComponent(linkMatch[1]) : null,
    };
  }

  // Where the match stands once the queued games are counted: the next game's number,
  // the score, whether it is the Crawford game, whether the match is over.
  function projected(data, rows) {
    var score = data.score.slice();
    var number = data.next;
    var crawfordPlayed = data.crawfordPlayed;
    var N = data.length;
    function isCrawford() {
      return data.crawford && N > 1 && !crawfordPlayed &&
        ((score[0] === N - 1) !== (score[1] === N - 1)) && score[0] < N && score[1] < N;
    }
    rows.forEach(function (r) {
      if (r.kind !== "game" || (r.status !== "waiting" && r.status !== "conflict")) return;
      if (isCrawford()) crawfordPlayed = true;
      score[r.body.winner === data.ids[0] ? 0 : 1] += gameWorth(r.body);
      number = r.number + 1;
    });
    return { score: score, number: number, crawford: isCrawford(),
      over: N > 0 && (score[0] >= N || score[1] >= N) };
  }

  function checkedValue(form, name) {
    var input = form.querySelector('input[name="' + name + '"]:checked');
    return input ? input.value : null;
  }

  // The game form as the API takes it (the form's dropped double asks for the cube
  // offered: the API takes the cube before the double, as the page's server does).
  function gameBody(form, data, where) {
    var winner = checkedValue(form, "winner");
    if (!winner) return { error: gettext("Choose who won.") };
    var body = { winner: Number(winner), ending: checkedValue(form, "ending") || "played" };
    if (body.ending === "dropped") {
      var offered = Number(checkedValue(form, "cube_offered"));
      if (!offered) return { error: gettext("Say which cube was offered: the value it was turned to.") };
      body.cube = offered / 2;
      body.level = "single";
      body.cube_owner = body.cube === 1 ? "centre" : (body.winner === data.ids[0] ? "player1" : "player2");
    } else {
      body.cube = Number(checkedValue(form, "cube") || "1");
      body.level = checkedValue(form, "level") || "single";
      var owner = checkedValue(form, "cube_owner");
      if (owner) body.cube_owner = owner;
    }
    if (where.over) return { error: gettext("The match is over: no game after it.") };
    if (where.crawford && (body.cube > 1 || body.ending === "dropped")) {
      return { error: gettext("No doubling in the Crawford game (double_in_crawford_game).") };
    }
    body.number = where.number;
    return { body: body };
  }

  function setUpEntry(node) {
    var data = entryData(node);
    var panel = document.getElementById("offline-queue");
    var base = "/api/v1/matches/" + data.match + "/";
    var shownHere = {};
    var rendered = {};

    function queue(kind, url, body, number) {
      return BoxcarsQueue.add({
        match: data.match, kind: kind, url: base + url, body: body, number: number || null,
        ifMatch: data.version, link: data.link, csrf: csrf(), names: data.names,
      }).then(function () {
        askForSync();
        return render();
      }).then(function () {
        if (navigator.onLine) return flushAndShow();
        return undefined;
      });
    }

    function formError(form, text) {
      var box = form.querySelector(".offline-error");
      if (!box) {
        box = el("p", { "class": "error offline-error", role: "alert" });
        form.appendChild(box);
      }
      box.textContent = text;
      box.hidden = !text;
    }

    function onSubmit(event) {
      var form = event.target;
      // only the entry page's own forms (their buttons are name="action"), never the
      // header's (log out, language)
      if (!event.submitter || event.submitter.name !== "action") return;
      var action = event.submitter.value || "";
      var queueable = ["game", "final", "confirm", "dispute"].indexOf(action) >= 0;
      if (!queueable && navigator.onLine) return; // an undo posts as ever
      // Online with nothing queued, the form posts as ever; otherwise it joins the queue
      // (behind what waits, so the entries reach the server in the order they were made).
      if (navigator.onLine && !node.hasAttribute("data-pending")) return; // the form posts
      event.preventDefault();
      BoxcarsQueue.list(data.match).then(function (rows) {
        var where = projected(data, rows);
        if (action === "game") {
          var made = gameBody(form, data, where);
          formError(form, made.error || "");
          if (made.error) return undefined;
          form.reset();
          form.dispatchEvent(new Event("change"));
          return queue("game", "games/", made.body, made.body.number);
        }
        if (action === "final") {
          var you = form.querySelector("[name=you]") || form.querySelector("[name=score1]");
          var them = form.querySelector("[name=opponent]") || form.querySelector("[name=score2]");
          var a = Number(you && you.value), b = Number(them && them.value);
          if (!(you && you.value !== "" && them && them.value !== "")) {
            formError(form, gettext("Enter both scores."));
            return undefined;
          }
          var score = form.querySelector("[name=you]")
            ? (data.side === 0 ? [a, b] : [b, a]) : [a, b];
          return queue("final", "result/", { score: score });
        }
        if (action === "confirm") return queue("confirm", "confirm/", {});
        if (action === "dispute") {
          var reason = form.querySelector("[name=reason]");
          if (!reason || !reason.value.trim()) {
            formError(form, gettext("Say what is wrong: the directors read this to rule."));
            return undefined;
          }
          return queue("dispute", "dispute/", { reason: reason.value.trim() });
        }
        formError(form, gettext("This needs the network: try again when you are back online."));
        return undefined;
      });
    }

    // Keep "Game 3", its button and the Crawford tag in step with the queued games.
    function updateForm(where) {
      var form = document.querySelector("form[data-game-entry]");
      if (!form) return;
      var section = form.closest("section");
      var heading = section && section.querySelector("h2");
      var button = form.querySelector("button[name=action][value=game]");
      var number = form.querySelector("[name=number]");
      if (number) number.value = where.number;
      var queuedGames = where.number !== data.next;
      var finalOnly = document.querySelector("form.final");
      if (finalOnly && finalOnly.closest("section")) finalOnly.closest("section").hidden = queuedGames;
      if (heading) {
        heading.textContent = where.over ? gettext("Match over")
          : say(gettext("Game %(next_game_number)s"), { next_game_number: where.number });
        if (where.crawford && data.length && !where.over) {
          heading.appendChild(document.createTextNode(" "));
          heading.appendChild(el("span", { "class": "tag" }, gettext("Crawford game: no doubling")));
        }
      }
      if (button) button.textContent = say(gettext("Record game %(next_game_number)s"), { next_game_number: where.number });
      form.hidden = where.over;
      var over = section.querySelector(".offline-over");
      if (where.over && !over) {
        section.appendChild(el("p", { "class": "offline-over muted" },
          gettext("The match is over once the games waiting to send are in.")));
      } else if (!where.over && over) {
        over.remove();
      }
    }

    function choice(label, handler, primary) {
      var button = el("button", { type: "button", "class": primary ? "big primary" : "big" }, label);
      button.addEventListener("click", handler);
      return button;
    }

    function conflictBlock(record) {
      var box = el("div", { "class": "offline-conflict", role: "alert" });
      var server = record.server || {};
      var theirs = record.kind === "game" ? BoxcarsQueue.serverGame(server, record.number) : null;
      var names = record.names || {};
      box.appendChild(el("p", { "class": "offline-head" }, theirs
        ? say(gettext("Game %(number)s was recorded differently while you were offline."), { number: record.number })
        : gettext("The match changed while you were offline.")));
      var theirsText = theirs
        ? gameWords(theirs, names)
        : say(gettext("score %(score1)s–%(score2)s"), { score1: server.score[0], score2: server.score[1] });
      var who = theirs && theirs.entered_by != null ? names[String(theirs.entered_by)] : null;
      box.appendChild(el("p", {}, who
        ? say(gettext("The server has: %(theirs)s, entered by %(who)s."), { theirs: theirsText, who: who })
        : say(gettext("The server has: %(theirs)s."), { theirs: theirsText })));
      var mineText = record.kind === "game" ? gameWords(record.body, names) : entryWords(record);
      box.appendChild(el("p", {}, say(gettext("Your phone had: %(mine)s."), { mine: mineText })));
      var row = el("p", { "class": "row" });
      // The safe choice is the main button: the server's record stands and nothing new
      // is invented; "enter mine" adds a game, so it is offered beside it, never first.
      row.appendChild(choice(gettext("Keep theirs"), function () {
        keepTheirs(record);
      }, true));
      var nextOpen = server.next_game && (server.status === "scheduled" || server.status === "in_progress");
      if (record.kind === "game" && nextOpen) {
        row.appendChild(choice(say(gettext("Enter mine as game %(number)s"), { number: server.next_game }), function () {
          var body = Object.assign({}, record.body, { number: server.next_game });
          replace(record, "game", "games/", body, server.next_game);
        }));
      }
      row.appendChild(choice(gettext("Dispute"), function () {
        var form = el("div", { "class": "stack offline-dispute" });
        var id = "offline-dispute-" + record.id;
        form.appendChild(el("label", { "for": id }, gettext("What is wrong with the entry?")));
        var text = el("textarea", { id: id, rows: "4" });
        var what = theirs ? say(gettext("Game %(number)s"), { number: record.number }) : gettext("The match");
        text.value = say(gettext("%(what)s: the server has %(theirs)s; my phone had %(mine)s."), {
          what: what, theirs: theirsText, mine: mineText });
        form.appendChild(text);
        form.appendChild(choice(gettext("Send dispute"), function () {
          if (!text.value.trim()) return;
          replace(record, "dispute", "dispute/", { reason: text.value.trim() }, null);
        }, true));
        box.appendChild(form);
        text.focus();
      }));
      box.appendChild(row);
      return box;
    }

    // The server's record as it is now (the conflict's copy when the network is gone
    // again): what the entries queued behind a settled one are re-based on.
    function serverNow(record) {
      if (!navigator.onLine) return Promise.resolve(record.server);
      return BoxcarsQueue.readMatch(data.match, record).then(function (now) {
        return now && !now.gone ? now : record.server;
      }, function () { return record.server; });
    }

    // "Keep theirs": the player's entry goes; what they queued after it stays theirs,
    // re-based on the server's record (numbers and scores from its games) and sent.
    function keepTheirs(record) {
      return BoxcarsQueue.remove(record.id)
        .then(function () { return serverNow(record); })
        .then(function (server) { return BoxcarsQueue.rebase(data.match, record.id, server); })
        .then(function () { location.reload(); });
    }

    // A player's choice on a conflict: a new entry (a new key) against the version the
    // player has just seen, in the old one's place in the queue (so what was queued
    // after it still goes after it, re-based on top of it).
    function replace(record, kind, url, body, number) {
      var server = record.server;
      var entry = Object.assign({}, record, {
        kind: kind, url: base + url, body: body, number: number, key: BoxcarsQueue.uuid(),
        ifMatch: server.version, chained: false, status: "waiting", madeAt: Date.now(),
        code: null, detail: null, server: null, csrf: csrf(),
      });
      return BoxcarsQueue.put(entry)
        .then(function () {
          return BoxcarsQueue.rebase(data.match, record.id, server, {
            behind: true,
            ahead: kind === "game" ? gameWorth(body) : 0,
            aheadWinner: kind === "game" ? body.winner : null,
          });
        }).then(function () {
          askForSync();
          return render();
        }).then(function () { if (navigator.onLine) return flushAndShow(); return undefined; });
    }

    function render() {
      return BoxcarsQueue.list(data.match).then(function (rows) {
        // A sent entry is shown on the first page that has the server's state after it,
        // then forgotten: it is on the score sheet.
        rows = rows.filter(function (r) {
          if (r.status !== "sent" || shownHere[r.id]) return true;
          if (r.shown) { BoxcarsQueue.remove(r.id); return false; }
          if (node.hasAttribute("data-flushing")) return true;
          shownHere[r.id] = true;
          r.shown = true;
          BoxcarsQueue.put(r);
          return true;
        });
        rendered = {};
        rows.forEach(function (r) { rendered[r.id] = r.status; });
        var pending = rows.some(function (r) { return r.status === "waiting" || r.status === "conflict"; });
        if (pending) node.setAttribute("data-pending", ""); else node.removeAttribute("data-pending");
        updateForm(projected(data, rows));
        panel.textContent = "";
        panel.hidden = rows.length === 0;
        if (!rows.length) return;
        panel.appendChild(el("h2", {}, gettext("On this phone")));
        var list = el("ul", { "class": "offline-list" });
        rows.forEach(function (r) {
          var item = el("li", { "class": "offline-" + r.status, "data-status": r.status });
          item.appendChild(el("span", { "class": "offline-what" }, entryWords(r)));
          var label;
          if (r.status === "waiting") {
            label = r.chained ? gettext("waiting to send (after the one above)") : gettext("waiting to send");
            label += " · " + say(gettext("made at %(time)s"), { time: clock(r.madeAt) });
            if (r.rebased) label += " · " + rebasedWords(r.rebased);
          } else if (r.status === "sent") {
            label = r.same ? gettext("sent: your opponent had recorded the same")
              : r.replayed ? gettext("sent (the server already had it)") : gettext("sent");
          } else if (r.status === "refused") {
            label = refusalWords(r);
          } else {
            label = gettext("not sent: it needs you");
          }
          item.appendChild(el("span", { "class": "tag " + (r.status === "sent" ? "ok" : r.status === "waiting" ? "warn" : "bad") }, label));
          if (r.status === "conflict") item.appendChild(conflictBlock(r));
          if (r.status === "refused") {
            item.appendChild(choice(gettext("Dismiss"), function () {
              BoxcarsQueue.remove(r.id).then(render);
            }));
          }
          list.appendChild(item);
        });
        panel.appendChild(list);
      });
    }

    // Whether an entry this page shows as waiting has been settled since (by this page's
    // flush or the worker's): the page then reloads to show the server's state.
    function stale() {
      return BoxcarsQueue.list(data.match).then(function (rows) {
        return rows.some(function (r) { return rendered[r.id] === "waiting" && r.status !== "waiting"; }) ||
          Object.keys(rendered).some(function (id) {
            return rendered[id] === "waiting" && !rows.some(function (r) { return String(r.id) === id; });
          });
      });
    }

    document.addEventListener("submit", onSubmit, true);
    entryRender = render;
    entryStale = stale;
    return render();
  }

  // --- the home page ------------------------------------------------------------------------

  function renderBadge() {
    var badge = document.querySelector("[data-offline-badge]");
    if (!badge) return Promise.resolve();
    return BoxcarsQueue.list().then(function (rows) {
      var waiting = rows.filter(function (r) { return r.status === "waiting"; }).length;
      var attention = rows.filter(function (r) { return r.status === "conflict" || r.status === "refused"; }).length;
      var parts = [];
      if (waiting) parts.push(interpolate(ngettext("%(n)s waiting to send", "%(n)s waiting to send", waiting), { n: waiting }, true));
      if (attention) parts.push(interpolate(ngettext("%(n)s needs you", "%(n)s need you", attention), { n: attention }, true));
      badge.textContent = parts.join(" · ");
      badge.hidden = parts.length === 0;
    });
  }

  // --- sending ------------------------------------------------------------------------------

  var entryRender = null;
  var entryStale = null;
  var flushing = false;

  function afterFlush(outcome) {
    // The server's state is the truth: once an entry the page shows as waiting is
    // settled, reload the page to show it (a player page is network first, so this is
    // fresh) before any entry is shown as final.
    var settled = entryStale ? entryStale() : Promise.resolve(outcome.changed);
    return settled.then(function (reload) {
      if (reload) {
        location.reload();
        return;
      }
      if (entryRender) entryRender();
      renderBadge();
    });
  }

  function flushAndShow() {
    if (flushing || typeof BoxcarsQueue === "undefined") return Promise.resolve();
    flushing = true;
    var node = document.getElementById("offline-entry");
    if (node) node.setAttribute("data-flushing", "");
    return BoxcarsQueue.flush(csrf()).then(function (outcome) {
      flushing = false;
      window.__boxcarsFlushes = (window.__boxcarsFlushes || 0) + 1; // for the browser tests
      if (node) node.removeAttribute("data-flushing");
      afterFlush(outcome);
    }, function () { flushing = false; });
  }

  document.addEventListener("DOMContentLoaded", function () {
    registerWorker();
    banner();
    window.addEventListener("offline", banner);
    window.addEventListener("online", function () { banner(); flushAndShow(); });
    if (typeof BoxcarsQueue === "undefined" || !window.indexedDB) return;
    var node = document.getElementById("offline-entry");
    var ready = node && node.hasAttribute("data-side") && node.getAttribute("data-side") !== ""
      ? setUpEntry(node) : Promise.resolve();
    ready.then(renderBadge).then(function () { if (navigator.onLine) flushAndShow(); });
  });
})();
