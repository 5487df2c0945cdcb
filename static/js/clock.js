/* The match clock (docs/clocks.md). The server decides; this page displays. Every
   answer of the clock API carries the server's figures of that moment: whose time
   runs, the running turn's delay left (`delay_left_ms`) and each side's reserve left
   (`remaining_ms`), by the server's own reckoning (games/rules/clock.py, time_left).
   The page shows them and only counts its own elapsed time down from them (first the
   delay, then the reserve): it charges nothing, decides no flag fall and no overtime.
   A tap reports the turn (its time: the server's elapsed time of the turn when the page
   read it plus the page's own time since); when the page's display reaches zero it
   asks the server to declare the flag fall, which the server checks against its own
   time (409 `clock_not_expired` otherwise), and the server's answer is what the page
   then shows. A player's device ends only its own player's turns (data-my-side; the
   server refuses the opponent's), a director's device both.

   Until the server answers a report (or while the network is away) the page shows the
   report as it was made: the tapped half stops at what it showed, the other half counts
   down from the server's last figures, a paused clock stands still; the next answer
   replaces all of it. Time within a visit is measured with performance.now()
   (monotonic: a changed system clock does not move it); the state, with the wall-clock
   time of its anchor, lives in localStorage so that a reload resumes it. Every report
   goes through a queue that survives a reload and the network going away: it is sent
   in order, each with an Idempotency-Key, and the "offline" badge shows while it
   waits. */
(function () {
  "use strict";

  const root = document.getElementById("clock");
  if (!root) return;
  const api = root.dataset.api;
  const matchId = root.dataset.match;
  const canRun = root.dataset.canRun === "1";
  // 0 or 1: the side this device speaks for; null: a director's device (both sides)
  const mySide = root.dataset.mySide ? Number(root.dataset.mySide) - 1 : null;
  const link = root.dataset.link;
  const csrf = root.dataset.csrf;
  const text = JSON.parse(document.getElementById("clock-text").textContent);
  const names = JSON.parse(document.getElementById("clock-names").textContent);
  const halves = [root.querySelector('[data-side="1"]'), root.querySelector('[data-side="2"]')];
  const $ = (role) => root.querySelector(`[data-role="${role}"]`);
  const storeKey = `boxcars-clock-${matchId}`;
  const TICK_MS = 100;

  let st = null; // the clock as the server last answered, and what this page shows (see adopt)
  let anchorPerf = null; // performance.now() when the shown figures were taken
  let sending = false;

  function fmt(text, values) {
    return text.replace(/%\((\w+)\)s/g, (_, key) => values[key]);
  }

  function save() {
    if (!st) return;
    localStorage.setItem(storeKey, JSON.stringify(st));
    root.dataset.pending = String(st.queue.length); // reports not yet accepted
  }

  function adopt(clock, asked) {
    /* Show the server's clock as it stands in its answer: its status and sides, its
       delay left and reserves left, and the running turn's time by its reckoning.
       ``asked``: when this page sent the request ({perf, wall}); the page counts its
       own time from then (the server made its figures between the asking and the
       answer: a page that counted from the answer would lose the time a slow answer
       took, and report turns shorter than they were). */
    const at = asked || { perf: performance.now(), wall: Date.now() };
    st = {
      startedAt: clock.started_at,
      delay: clock.delay_ms,
      status: clock.status,
      running: clock.running === null ? null : clock.running - 1,
      flagged: clock.flagged === null ? null : clock.flagged - 1,
      overtimeUsed: clock.overtime_used.slice(),
      delayLeft: clock.delay_left_ms,
      remaining: clock.remaining_ms.slice(),
      turnBefore: clock.elapsed_ms || 0, // the running turn's time at the anchor, by the server
      fresh: true, // the server's figures, not a report waiting for its answer
      flagAsked: false,
      seq: clock.last_seq,
      version: clock.version,
      anchorWall: at.wall,
      queue: [],
    };
    anchorPerf = at.perf;
    save();
  }

  function resumeLocal(saved) {
    st = saved;
    anchorPerf = performance.now() - Math.max(0, Date.now() - st.anchorWall);
  }

  function sinceAnchor() {
    /* This page's own time since the figures it shows were taken (paused: none). */
    if (!st || st.status !== "running" || anchorPerf === null) return 0;
    return Math.max(0, performance.now() - anchorPerf);
  }

  function shown(side) {
    /* What the half of ``side`` shows now: [reserve, delay], the server's figures less
       this page's own time since they were taken (first the delay, then the reserve). */
    if (st.running !== side || (st.status !== "running" && st.status !== "paused")) return [st.remaining[side], st.delay];
    const t = sinceAnchor();
    return [Math.max(st.remaining[side] - Math.max(t - st.delayLeft, 0), 0), Math.max(st.delayLeft - t, 0)];
  }

  function turnTime() {
    /* The running turn's time to report: the server's figure at the anchor plus ours. */
    return Math.round(st.turnBefore + sinceAnchor());
  }

  function reanchor(changes) {
    /* What the page shows while a report waits for its answer: the figures as they
       stand now, then the report's change (the next answer replaces them). */
    const figures = [shown(0), shown(1)];
    st.remaining = [figures[0][0], figures[1][0]];
    if (st.running !== null) st.delayLeft = figures[st.running][1];
    st.turnBefore = turnTime();
    Object.assign(st, changes, { fresh: false, anchorWall: Date.now() });
    anchorPerf = performance.now();
  }

  // --- reports ---------------------------------------------------------------------

  function enqueue(path, body, key) {
    st.queue.push({ path: path, body: body, key: key });
    save();
    flush();
  }

  function headers(key) {
    const h = { "Content-Type": "application/json", Accept: "application/json", "Idempotency-Key": key };
    if (link) h["X-Score-Link"] = link;
    else h["X-CSRFToken"] = csrf;
    return h;
  }

  function setOffline(offline) {
    $("net").hidden = !offline;
    root.classList.toggle("offline", offline);
  }

  async function flush() {
    if (sending || !st || !st.queue.length) return;
    sending = true;
    try {
      while (st.queue.length) {
        const item = st.queue[0];
        const asked = { perf: performance.now(), wall: Date.now() };
        let response;
        try {
          response = await fetch(api + item.path, {
            method: "POST",
            headers: headers(item.key),
            body: JSON.stringify(item.body || {}),
            credentials: "same-origin",
          });
        } catch (error) {
          setOffline(true);
          setTimeout(flush, 3000);
          return;
        }
        setOffline(false);
        if (response.status >= 500) {
          setTimeout(flush, 3000);
          return;
        }
        st.queue.shift();
        let data = null;
        try {
          data = await response.json();
        } catch (error) { /* a replayed answer without a body */ }
        if (!response.ok) {
          // refused: show why, and take the server's clock as it stands
          $("message").textContent = fmt(text.error, { detail: (data && data.detail) || response.status });
          save();
          await load(true);
          return;
        }
        if (data && data.clock && !st.queue.length) adopt(data.clock, asked); // the server's answer is what shows
        else if (data && data.clock) st.version = Math.max(st.version || 0, data.clock.version);
        save();
        render();
      }
    } finally {
      sending = false;
    }
  }

  // --- what the page asks the server -------------------------------------------------

  function report(path, body) {
    st.seq += 1;
    body.seq = st.seq;
    enqueue(path, body, `clock-${matchId}-${st.startedAt}-${st.seq}`);
  }

  function mayEnd(side) {
    /* The first tap ends nobody's turn (either player starts the clock); after that a
       player's device ends its own player's turns only. */
    return mySide === null || st.status === "ready" || side === mySide;
  }

  function tap(side) {
    if (!canRun || !st || !mayEnd(side)) return;
    if (st.status === "ready") {
      reanchor({ status: "running", running: 1 - side, delayLeft: st.delay, turnBefore: 0 });
      report("turns/", { side: side + 1, used_ms: 0 });
    } else if (st.status === "running" && st.running === side && !st.flagAsked) {
      const used = turnTime();
      reanchor({});
      // the tapped half stops at what it showed; the other's turn starts with the delay
      Object.assign(st, { running: 1 - side, delayLeft: st.delay, turnBefore: 0 });
      report("turns/", { side: side + 1, used_ms: used });
    }
    render();
  }

  function askFlag() {
    /* The display reached zero: ask the server whether the flag fell (it decides by its
       own time); the half shows 0:00 until it answers. */
    st.flagAsked = true;
    report("flag/", { side: st.running + 1, used_ms: turnTime() });
  }

  function pause() {
    if (!st || st.status !== "running") return;
    reanchor({ status: "paused" });
    enqueue("pause/", {}, `clock-${matchId}-pause-${Date.now()}`);
    render();
  }

  function resume() {
    if (!st || st.status !== "paused") return;
    reanchor({ status: "running" });
    enqueue("resume/", {}, `clock-${matchId}-resume-${Date.now()}`);
    render();
  }

  // --- drawing ---------------------------------------------------------------------

  function clockFace(ms) {
    const seconds = Math.max(0, Math.ceil(ms / 1000));
    const m = Math.floor(seconds / 60);
    const s = seconds % 60;
    return `${m}:${String(s).padStart(2, "0")}`;
  }

  function render() {
    if (!st) return;
    root.dataset.status = st.status;
    root.dataset.fresh = st.fresh ? "1" : "0"; // 1: the figures are the server's last answer
    halves.forEach((half, side) => {
      const mine = st.running === side && (st.status === "running" || st.status === "paused");
      const [reserve, delay] = shown(side);
      half.querySelector('[data-role="time"]').textContent = clockFace(reserve);
      half.querySelector('[data-role="delay"]').textContent = fmt(text.delay, { s: Math.ceil(delay / 1000) });
      let note = "";
      if (st.status === "flagged" && st.flagged === side) note = fmt(text.flagged, { name: names[side] });
      else if (st.overtimeUsed[side]) note = text.overtime_used;
      half.querySelector('[data-role="note"]').textContent = note;
      half.classList.toggle("running", mine && st.status === "running");
      half.classList.toggle("low", mine && st.status === "running" && reserve < 30000);
      half.classList.toggle("flagged", st.status === "flagged" && st.flagged === side);
      half.disabled = !canRun || st.status === "flagged" || !mayEnd(side);
    });
    $("pause").hidden = !canRun || st.status !== "running";
    $("resume").hidden = !canRun || st.status !== "paused";
    const message = $("message");
    if (st.status === "flagged") message.textContent = fmt(text.flagged, { name: names[st.flagged] });
    else if (st.status === "ready") message.textContent = text.ready;
    else if (st.status === "paused" && st.fresh && st.turnBefore === 0 && st.running !== null && st.overtimeUsed[st.running])
      message.textContent = fmt(text.overtime, { name: names[st.running] }); // the server gave overtime
    else if (st.status === "paused") message.textContent = text.paused;
    else if (!message.textContent.startsWith(text.error.split("%")[0])) message.textContent = "";
  }

  function tick() {
    if (st && st.status === "running" && st.running !== null && canRun && !st.flagAsked) {
      const [reserve, delay] = shown(st.running);
      if (reserve + delay <= 0) askFlag();
    }
    render();
  }

  // --- loading and starting --------------------------------------------------------

  async function fetchClock() {
    const asked = { perf: performance.now(), wall: Date.now() };
    const response = await fetch(api, { headers: { Accept: "application/json" }, credentials: "same-origin" });
    return { clock: (await response.json()).clock, asked: asked };
  }

  async function follow() {
    /* Show the server's clock when it moved past what this page shows (a director
       paused or resumed from another device, another device took over), never while a
       report of ours is on its way. */
    if (!st || sending || st.queue.length) return;
    let clock, asked;
    try {
      ({ clock, asked } = await fetchClock());
    } catch (error) {
      return;
    }
    if (!clock || !st || sending || st.queue.length) return;
    if (clock.started_at !== st.startedAt || clock.version > (st.version || 0)) {
      adopt(clock, asked);
      render();
    }
  }

  async function load(afterRefusal) {
    let clock, asked;
    try {
      ({ clock, asked } = await fetchClock());
    } catch (error) {
      // offline at load: carry on with what this device remembers
      const saved = localStorage.getItem(storeKey);
      if (saved && !st) resumeLocal(JSON.parse(saved));
      setOffline(true);
      render();
      return;
    }
    if (!clock) {
      st = null;
      localStorage.removeItem(storeKey);
      root.dataset.status = "none";
      const start = $("start");
      if (start) start.hidden = false;
      const watch = $("watch");
      if (watch) watch.hidden = false;
      return;
    }
    const start = $("start");
    if (start) start.hidden = true;
    const saved = afterRefusal ? null : JSON.parse(localStorage.getItem(storeKey) || "null");
    if (saved && saved.remaining && saved.queue && saved.queue.length && saved.startedAt === clock.started_at && canRun) {
      // reports of this device still to send: show them as made, and send them
      resumeLocal(saved);
      flush();
    } else {
      adopt(clock, asked);
    }
    render();
  }

  function bindStart() {
    const form = $("start");
    if (!form) return;
    const preset = form.elements.preset;
    const flagRule = form.elements.flag_rule;
    const sync = () => {
      if (preset) $("custom").hidden = preset.value !== "custom";
      if (flagRule) $("overtime").hidden = flagRule.value !== "overtime";
    };
    if (preset) preset.addEventListener("change", sync);
    if (flagRule) flagRule.addEventListener("change", sync);
    sync();
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const body = { preset: preset.value };
      if (preset.value === "custom") {
        body.delay_ms = Math.round(Number(form.elements.delay_s.value) * 1000);
        body.reserve_ms = Math.round(Number(form.elements.reserve_s.value) * 1000);
      }
      if (flagRule) {
        body.flag_rule = flagRule.value;
        if (flagRule.value === "overtime") body.overtime_ms = Math.round(Number(form.elements.overtime_s.value) * 1000);
      }
      const response = await fetch(api, {
        method: "POST",
        headers: headers(`clock-${matchId}-start-${Date.now()}`),
        body: JSON.stringify(body),
        credentials: "same-origin",
      });
      const data = await response.json();
      if (!response.ok) {
        $("message").textContent = fmt(text.error, { detail: data.detail || response.status });
        return;
      }
      $("message").textContent = "";
      form.hidden = true;
      adopt(data.clock);
      render();
    });
  }

  halves.forEach((half, side) => half.addEventListener("click", () => tap(side)));
  $("pause").addEventListener("click", pause);
  $("resume").addEventListener("click", resume);
  window.addEventListener("online", flush);
  bindStart();
  load(false);
  setInterval(tick, TICK_MS);
  // watchers follow the table's clock; the table follows a director's pause
  if (!canRun) setInterval(() => load(false), 5000);
  else setInterval(follow, 5000);
})();
