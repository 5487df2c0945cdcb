/* The match clock (docs/clocks.md). The browser shows the time; the server's own
   reckoning is the truth: it charges each turn as it saw it (within a tolerance for
   the network), accepts a flag only when its own time is spent, and answers with the
   running turn's time by its clock (`elapsed_ms`), which this page adopts whenever it
   takes the server's clock. This mirrors games/rules/clock.py: the first `delay` ms of
   a turn are free, only what a turn uses beyond them is taken from the reserve, and a
   reserve that reaches zero is a flag fall (overtime first when the clock says so, else
   the match is lost). A player's device ends only its own player's turns (data-my-side;
   the server refuses the opponent's), a director's device both.

   Time within a visit is measured with performance.now() (monotonic: a changed system
   clock does not move it); the state, with the wall-clock time the running turn
   started, lives in localStorage so that a reload resumes it. Every report goes through
   a queue that survives a reload and the network going away: it is sent in order, each
   with an Idempotency-Key, and the "offline" badge shows while it waits. */
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

  let st = null; // the clock as this page runs it (see adopt)
  let spanPerf = null; // performance.now() when the running span started
  let sending = false;

  function fmt(text, values) {
    return text.replace(/%\((\w+)\)s/g, (_, key) => values[key]);
  }

  function save() {
    if (!st) return;
    localStorage.setItem(storeKey, JSON.stringify(st));
    root.dataset.pending = String(st.queue.length); // reports not yet accepted
  }

  function adopt(clock) {
    /* Take the server's clock as it stands (a first visit, another device ran it, or
       the server refused something this page sent). */
    st = {
      startedAt: clock.started_at,
      delay: clock.delay_ms,
      overtime: clock.overtime_ms,
      flagRule: clock.flag_rule,
      reserve: clock.reserve_ms.slice(),
      status: clock.status,
      running: clock.running === null ? null : clock.running - 1,
      flagged: clock.flagged === null ? null : clock.flagged - 1,
      overtimeUsed: clock.overtime_used.slice(),
      seq: clock.last_seq,
      version: clock.version,
      turnUsed: clock.elapsed_ms || 0, // the running turn's time so far, by the server
      spanWall: clock.status === "running" ? Date.now() : null,
      queue: [],
    };
    spanPerf = st.spanWall === null ? null : performance.now();
    save();
  }

  function resumeLocal(saved) {
    st = saved;
    spanPerf = st.spanWall === null ? null : performance.now() - Math.max(0, Date.now() - st.spanWall);
  }

  function elapsed() {
    /* The running side's time used this turn (paused time excluded). */
    if (!st || st.running === null) return 0;
    const span = spanPerf === null ? 0 : performance.now() - spanPerf;
    return Math.max(0, Math.round(st.turnUsed + span));
  }

  function startSpan() {
    st.spanWall = Date.now();
    spanPerf = performance.now();
  }

  function stopSpan() {
    st.turnUsed = elapsed();
    st.spanWall = null;
    spanPerf = null;
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
        if (response.ok) {
          try {
            st.version = Math.max(st.version || 0, (await response.json()).clock.version);
          } catch (error) { /* a replayed answer without a body */ }
        }
        save();
        if (!response.ok) {
          // refused: show why, and take the server's clock as it stands
          let detail = response.status;
          try {
            detail = (await response.json()).detail || detail;
          } catch (error) { /* not JSON */ }
          $("message").textContent = fmt(text.error, { detail: detail });
          await load(true);
          return;
        }
      }
    } finally {
      sending = false;
    }
  }

  // --- the rules, as the server applies them ---------------------------------------

  function flagFall(side, used) {
    st.seq += 1;
    enqueue("flag/", { seq: st.seq, side: side + 1, used_ms: used }, `clock-${matchId}-${st.startedAt}-${st.seq}`);
    st.turnUsed = 0;
    st.spanWall = null;
    spanPerf = null;
    if (st.flagRule === "overtime" && !st.overtimeUsed[side]) {
      st.reserve[side] = st.overtime;
      st.overtimeUsed[side] = true;
      st.status = "paused";
      st.running = side;
    } else {
      st.reserve[side] = 0;
      st.status = "flagged";
      st.flagged = side;
      st.running = null;
    }
    save();
  }

  function mayEnd(side) {
    /* The first tap ends nobody's turn (either player starts the clock); after that a
       player's device ends its own player's turns only. */
    return mySide === null || st.status === "ready" || side === mySide;
  }

  function tap(side) {
    if (!canRun || !st || !mayEnd(side)) return;
    if (st.status === "ready") {
      st.seq += 1;
      st.status = "running";
      st.running = 1 - side;
      st.turnUsed = 0;
      startSpan();
      enqueue("turns/", { seq: st.seq, side: side + 1, used_ms: 0 }, `clock-${matchId}-${st.startedAt}-${st.seq}`);
    } else if (st.status === "running" && st.running === side) {
      const used = elapsed();
      if (used >= st.delay + st.reserve[side]) {
        flagFall(side, used);
      } else {
        st.reserve[side] -= Math.max(used - st.delay, 0);
        st.seq += 1;
        st.running = 1 - side;
        st.turnUsed = 0;
        startSpan();
        enqueue("turns/", { seq: st.seq, side: side + 1, used_ms: used }, `clock-${matchId}-${st.startedAt}-${st.seq}`);
      }
    }
    render();
  }

  function pause() {
    if (!st || st.status !== "running") return;
    stopSpan();
    st.status = "paused";
    enqueue("pause/", {}, `clock-${matchId}-pause-${Date.now()}`);
    render();
  }

  function resume() {
    if (!st || st.status !== "paused") return;
    st.status = "running";
    startSpan();
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
    const used = elapsed();
    halves.forEach((half, side) => {
      const mine = st.running === side && (st.status === "running" || st.status === "paused");
      const reserve = mine ? Math.max(st.reserve[side] - Math.max(used - st.delay, 0), 0) : st.reserve[side];
      const delay = mine ? Math.max(st.delay - used, 0) : st.delay;
      half.querySelector('[data-role="time"]').textContent = clockFace(reserve);
      half.querySelector('[data-role="delay"]').textContent = fmt(text.delay, { s: Math.ceil(delay / 1000) });
      let note = "";
      if (st.status === "flagged" && st.flagged === side) note = fmt(text.flagged, { name: names[side] });
      else if (st.overtimeUsed[side]) note = "OT";
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
    else if (st.status === "paused" && st.overtimeUsed.some(Boolean) && st.turnUsed === 0 && st.running !== null && st.overtimeUsed[st.running])
      message.textContent = fmt(text.overtime, { name: names[st.running] });
    else if (st.status === "paused") message.textContent = text.paused;
    else if (!message.textContent.startsWith(text.error.split("%")[0])) message.textContent = "";
  }

  function tick() {
    if (st && st.status === "running" && st.running !== null && canRun) {
      const side = st.running;
      const used = elapsed();
      if (used >= st.delay + st.reserve[side]) flagFall(side, st.delay + st.reserve[side]);
    }
    render();
  }

  // --- loading and starting --------------------------------------------------------

  async function follow() {
    /* A director paused or resumed from another device, or another device took over:
       take the server's clock when it moved past what this page sent (never while a
       report of ours is on its way). */
    if (!st || sending || st.queue.length) return;
    let data;
    try {
      const response = await fetch(api, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      data = await response.json();
    } catch (error) {
      return;
    }
    const clock = data.clock;
    if (!clock || !st || sending || st.queue.length) return;
    if (clock.started_at !== st.startedAt || clock.version > (st.version || 0)) {
      if (clock.status !== st.status || clock.last_seq !== st.seq || clock.started_at !== st.startedAt) adopt(clock);
      else st.version = clock.version;
      save();
      render();
    }
  }

  async function load(afterRefusal) {
    let data;
    try {
      const response = await fetch(api, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      data = await response.json();
    } catch (error) {
      // offline at load: carry on with what this device remembers
      const saved = localStorage.getItem(storeKey);
      if (saved && !st) resumeLocal(JSON.parse(saved));
      setOffline(true);
      render();
      return;
    }
    const clock = data.clock;
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
    if (saved && saved.startedAt === clock.started_at && saved.seq >= clock.last_seq && canRun) {
      resumeLocal(saved);
      flush();
    } else if (!st || !canRun || afterRefusal || clock.last_seq > st.seq || clock.status !== st.status) {
      adopt(clock);
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
