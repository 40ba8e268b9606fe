// spacetable browser client: lobby, match page, replay viewer (no build step, no libraries).
"use strict";
(function () {
  const S = window.Spacetable;
  const { h, t } = S;
  const app = document.getElementById("app");
  let games = [];
  let current = null; // {page, cleanup(), rerender()}

  // ------------------------------------------------------------------ utils
  async function api(path, opts = {}) {
    const r = await fetch(path, {
      method: opts.method || "GET",
      headers: { "Content-Type": "application/json", ...(opts.headers || {}) },
      body: opts.body ? JSON.stringify(opts.body) : undefined,
    });
    const data = await r.json().catch(() => ({}));
    if (!r.ok) throw Object.assign(new Error(errText(data.error || data)), { status: r.status, data });
    return data;
  }

  function errText(e) {
    if (!e) return t("error.generic", "Something went wrong");
    if (e.rule) return `[${e.rule}] ${e.message}`;
    if (e.message) return e.message;
    if (e.detail) return typeof e.detail === "string" ? e.detail : JSON.stringify(e.detail);
    return JSON.stringify(e);
  }

  let toastTimer = null;
  function toast(msg) {
    const el = document.getElementById("toast");
    el.textContent = msg;
    el.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { el.hidden = true; }, 6000);
  }

  function mySeats() {
    try { return JSON.parse(localStorage.getItem("spacetable.seats") || "{}"); } catch { return {}; }
  }
  function rememberSeat(matchId, seat, token) {
    const all = mySeats();
    all[matchId] = { seat, token };
    localStorage.setItem("spacetable.seats", JSON.stringify(all));
  }
  // SRV-A5: the token sits in the URL fragment, which the browser never sends to the server (no access log has it)
  function seatLink(matchId, seat, token) { return `/match/${matchId}#seat=${seat}&token=${encodeURIComponent(token)}`; }
  function gameInfo(id) { return games.find((g) => g.id === id) || { id, name: id, renderer: false, options: [] }; }
  function seatName(match, i) {
    const s = match.seats[i];
    if (!s) return `#${i + 1}`;
    if (s.kind === "open") return t("seat.open", "open seat") + ` ${i + 1}`;
    return s.name || `${t("seat.player", "Player")} ${i + 1}`;
  }
  function actionLabel(gameId, action) {
    const r = S.renderer(gameId);
    try { if (r && r.actionText) return r.actionText(action); } catch (e) { /* fall through */ }
    return window.SpacetableGeneric.actionText(action);
  }
  function navigate(url) { history.pushState({}, "", url); route(); }
  function link(url, text, attrs = {}) {
    return h("a", { href: url, ...attrs, onclick: (ev) => { ev.preventDefault(); navigate(url); } }, text);
  }
  function statusText(s) { return t("status." + s, s); }

  // ------------------------------------------------------------------ lobby
  async function lobbyPage() {
    const root = h("div.lobby", { "data-testid": "lobby" });
    app.replaceChildren(root);
    const form = h("section.card", { "data-testid": "create-form" });
    const lists = h("section.lists");
    root.append(form, lists);

    const gameSel = h("select", { "data-testid": "new-game", id: "new-game" },
      games.map((g) => h("option", { value: g.id }, g.name)));
    const optBox = h("div.options");
    const seatBox = h("div.seats");
    const aiSeconds = h("input", { type: "number", min: "0.05", step: "0.05", value: "1", "data-testid": "ai-seconds" });
    const turnSeconds = h("input", { type: "number", min: "0", step: "1", value: "0", "data-testid": "turn-seconds" });
    const nameInput = h("input", { type: "text", placeholder: t("lobby.your_name", "Your name"), "data-testid": "player-name" });
    const optionInputs = {};

    function seatCount() {
      const g = gameInfo(gameSel.value);
      const p = optionInputs.players ? Number(optionInputs.players.value) : g.min_players;
      return p || g.min_players;
    }
    function drawSeats() {
      const n = seatCount();
      const g = gameInfo(gameSel.value);
      seatBox.replaceChildren(h("h3", {}, t("lobby.seats", "Seats")), ...Array.from({ length: n }, (_, i) =>
        h("label.row", {}, `${t("seat.player", "Player")} ${i + 1} `,
          h("select", { "data-testid": `seat-kind-${i}` },
            h("option", { value: i === 0 ? "me" : "open", selected: true }, i === 0 ? t("lobby.me", "me") : t("lobby.open", "open (invite)")),
          // only the first seat marked "me" is taken at creation; any other stays open
            i === 0 ? h("option", { value: "open" }, t("lobby.open", "open (invite)")) : h("option", { value: "me" }, t("lobby.me", "me")),
            g.agents.map((a) => h("option", { value: "ai:" + a }, `${t("lobby.ai", "AI")}: ${a}${a === g.default_agent ? " ★" : ""}`))))));
    }
    function drawOptions() {
      const g = gameInfo(gameSel.value);
      for (const k of Object.keys(optionInputs)) delete optionInputs[k];
      const rows = [];
      if (g.min_players !== g.max_players) {
        const sel = h("select", { "data-testid": "opt-players", onchange: drawSeats },
          Array.from({ length: g.max_players - g.min_players + 1 }, (_, i) => h("option", { value: g.min_players + i }, g.min_players + i)));
        optionInputs.players = sel;
        rows.push(h("label.row", {}, t("lobby.players", "Players") + " ", sel));
      }
      for (const o of g.options) {
        let input;
        if (o.choices) {
          input = h("select", { "data-testid": `opt-${o.name}` }, o.choices.map((c) =>
            h("option", { value: JSON.stringify(c), selected: JSON.stringify(c) === JSON.stringify(o.default) }, String(c))));
          input.readValue = () => JSON.parse(input.value);
        } else if (o.kind === "bool") {
          input = h("input", { type: "checkbox", "data-testid": `opt-${o.name}`, checked: !!o.default });
          input.readValue = () => input.checked;
        } else {
          input = h("input", { type: o.kind === "int" || o.kind === "float" ? "number" : "text", value: o.default ?? "", "data-testid": `opt-${o.name}` });
          input.readValue = () => (o.kind === "int" ? parseInt(input.value, 10) : o.kind === "float" ? parseFloat(input.value)
            : o.kind === "json" ? JSON.parse(input.value || "null") : input.value);
        }
        optionInputs[o.name] = input;
        rows.push(h("label.row", { title: o.help || "" }, `${o.name} `, input, o.help ? h("small", {}, " " + o.help) : null));
      }
      optBox.replaceChildren(h("h3", {}, t("lobby.options", "Options")), ...rows);
      drawSeats();
    }
    gameSel.addEventListener("change", drawOptions);

    async function create() {
      const config = {};
      for (const [k, input] of Object.entries(optionInputs)) config[k] = k === "players" ? Number(input.value) : input.readValue();
      const n = seatCount();
      const ai = {};
      const mine = [];
      for (let i = 0; i < n; i++) {
        const v = seatBox.querySelector(`[data-testid=seat-kind-${i}]`).value;
        if (v.startsWith("ai:")) ai[i] = v.slice(3);
        if (v === "me") mine.push(i);
      }
      const body = { game: gameSel.value, config, ai_seats: ai, ai_seconds: Number(aiSeconds.value) || 1,
        turn_seconds: Number(turnSeconds.value) > 0 ? Number(turnSeconds.value) : null, player_name: nameInput.value };
      if (mine.length) body.join_seat = mine[0];
      try {
        const res = await api("/api/matches", { method: "POST", body });
        const id = res.match.id;
        if (res.token) rememberSeat(id, res.seat, res.token);
        navigate(res.token ? seatLink(id, res.seat, res.token) : `/match/${id}`);
      } catch (e) { toast(e.message); }
    }

    form.append(h("h2", {}, t("lobby.new_match", "New match")),
      h("label.row", {}, t("lobby.game", "Game") + " ", gameSel),
      h("label.row", {}, t("lobby.your_name", "Your name") + " ", nameInput),
      optBox, seatBox,
      h("label.row", {}, t("lobby.ai_seconds", "AI seconds per move") + " ", aiSeconds),
      h("label.row", {}, t("lobby.turn_seconds", "Turn clock (seconds, 0 = none)") + " ", turnSeconds),
      h("button.primary", { "data-testid": "create-match", onclick: create }, t("lobby.create", "Create match")));
    if (games.length) drawOptions();
    else form.append(h("p", {}, t("lobby.no_games", "No game is installed.")));

    async function drawLists() {
      let matches = [];
      try {
        const pages = await Promise.all(["open", "running", "finished"].map((st) => api(`/api/matches?status=${st}&limit=50`)));
        matches = pages.flat();
      } catch (e) { toast(e.message); }
      const mine = mySeats();
      const section = (status, title) => {
        const rows = matches.filter((m) => m.status === status).map((m) => {
          const my = mine[m.id];
          const myTurn = my && m.to_act.includes(my.seat);
          return h("tr", { "data-testid": "match-row", "data-match": m.id, "data-status": m.status },
            h("td", {}, m.game_name), h("td", {}, m.name || m.id,
              m.open_seed ? h("span.badge", { "data-testid": "open-seed", title: String(m.seed) }, " " + t("lobby.open_seed", "open seed")) : null,
              m.broken ? h("span.badge", { "data-testid": "broken", title: m.broken }, " " + t("lobby.broken", "cannot be loaded")) : null),
            h("td", {}, m.seats.map((s, i) => seatName(m, i)).join(" · ")),
            h("td", {}, myTurn ? h("span.badge", { "data-testid": "your-turn" }, t("lobby.your_turn", "your turn")) : ""),
            h("td", {},
              my ? link(seatLink(m.id, my.seat, my.token), t("lobby.resume", "play"), { "data-testid": "resume" }) : null, " ",
              link(`/match/${m.id}`, status === "open" ? t("lobby.join", "join") : t("lobby.watch", "watch"), { "data-testid": "watch" }), " ",
              status === "finished" ? link(`/replay/${m.id}`, t("lobby.replay", "replay"), { "data-testid": "replay-link" }) : null));
        });
        return h("div.card", { "data-testid": `list-${status}` }, h("h2", {}, title),
          rows.length ? h("table", {}, h("tbody", {}, rows)) : h("p.muted", {}, t("lobby.none", "none")));
      };
      lists.replaceChildren(section("open", t("lobby.open_matches", "Open matches")),
        section("running", t("lobby.running_matches", "Running matches")),
        section("finished", t("lobby.finished_matches", "Finished matches")));
    }
    await drawLists();
    const timer = setInterval(drawLists, 5000);
    return { cleanup() { clearInterval(timer); }, rerender: null };
  }

  // ------------------------------------------------------------------ match
  async function matchPage(matchId) {
    // the seat link's fragment (#seat=n&token=T); an old link's query (?seat=n&token=T) is moved there
    const query = new URLSearchParams(location.search);
    const params = query.has("token") ? query : new URLSearchParams(location.hash.slice(1));
    const seat = params.has("seat") ? Number(params.get("seat")) : null;
    const token = params.get("token");
    if (query.has("token") && seat !== null) history.replaceState({}, "", seatLink(matchId, seat, token));
    if (seat !== null && token) rememberSeat(matchId, seat, token);
    let snap = null;
    let ws = null;
    let closed = false;
    let clockTimer = null;
    let sending = false;

    const root = h("div.match", { "data-testid": "match-page", "data-match": matchId, "data-seat": seat ?? "spectator" });
    const head = h("div.match-head");
    const seatsEl = h("div.card.seats-panel", { "data-testid": "seats" });
    const boardEl = h("div.board", { "data-testid": "board" });
    const sideEl = h("div.side");
    const legalEl = h("div.card.legal", { "data-testid": "legal-actions" });
    const logEl = h("ol.log", { "data-testid": "move-log" });
    const resultEl = h("div.result", { "data-testid": "result", hidden: true });
    const undoEl = h("div.undo-box");
    sideEl.append(undoEl, legalEl, h("div.card", {}, h("h3", {}, t("match.log", "Moves")), logEl));
    root.append(head, resultEl, seatsEl, h("div.play", {}, boardEl, sideEl));
    app.replaceChildren(root);

    const info = () => gameInfo(snap.match.game);
    function send(action) {
      if (!ws || ws.readyState !== 1 || !snap || sending) return;
      sending = true;
      ws.send(JSON.stringify({ type: "action", version: snap.version, action }));
    }
    // SRV-L1..L3: above the server's limit `legal` is a selection (legalComplete false, legalCount the total);
    // fetchLegal pages through all of them, check asks whether a composed action would be accepted now.
    async function fetchLegal(offset = 0, limit = 1000) {
      const q = `seat=${seat}&offset=${offset}&limit=${limit}`;
      return api(`/api/matches/${matchId}/legal?${q}`, { headers: { "X-Seat-Token": token || "" } });
    }
    async function check(action) {
      return api(`/api/matches/${matchId}/legal/check`, { method: "POST", body: { seat, token, version: snap.version, action } });
    }
    const ctx = () => ({
      seat, legal: snap.legal || [], legalCount: snap.legal_count ?? (snap.legal || []).length,
      legalComplete: snap.legal_complete !== false, fetchLegal, check,
      send, t, lang: S.lang, version: snap.version, match: snap.match,
    });

    function drawHead() {
      const m = snap.match;
      const toAct = snap.to_act;
      let turn;
      if (m.status === "open") turn = t("match.waiting_players", "Waiting for players to take every seat");
      else if (m.status === "finished") turn = t("match.over", "Game over");
      else if (seat !== null && toAct.includes(seat)) turn = t("match.your_turn", "Your turn");
      else turn = t("match.waiting_for", "Waiting for {who}", { who: toAct.map((i) => seatName(m, i)).join(", ") });
      head.replaceChildren(
        h("h1", {}, `${m.game_name}${m.name ? " – " + m.name : ""}`),
        h("div.meta", {},
          h("span", { "data-testid": "match-status", "data-status": m.status }, statusText(m.status)), " · ",
          h("span", { "data-testid": "version", "data-version": String(snap.version) }, `${t("match.version", "move")} ${snap.version}`), " · ",
          m.open_seed || m.seed != null ? h("span", { "data-testid": "seed" }, `${t("match.seed", "seed")} ${m.seed}`) : null,
          m.open_seed || m.seed != null ? " · " : null,
          seat === null ? h("span", { "data-testid": "spectating" }, t("match.spectator", "spectator"))
            : h("span", { "data-testid": "my-seat" }, `${t("match.you_are", "You are")} ${seatName(m, seat)}`)),
        h("div.turn", { "data-testid": "turn-indicator", "data-my-turn": seat !== null && toAct.includes(seat) ? "yes" : "no" }, turn),
        h("div.clock", { "data-testid": "clock", hidden: !m.deadline }));
      tickClock();
    }
    function tickClock() {
      const el = head.querySelector("[data-testid=clock]");
      if (!el || !snap || !snap.match.deadline) return;
      const left = Math.max(0, Math.round(snap.match.deadline - Date.now() / 1000));
      el.textContent = `${t("match.clock", "Clock")}: ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
    }
    function drawSeats() {
      const m = snap.match;
      const rows = m.seats.map((s, i) => {
        const mine = i === seat;
        const canAddAi = s.kind === "open" && m.status !== "finished";
        return h("li", { "data-testid": `seat-${i}`, "data-kind": s.kind, class: m.to_act.includes(i) ? "to-act" : "" },
          h("strong", {}, seatName(m, i)), s.kind === "ai" ? ` (${t("lobby.ai", "AI")})` : "", mine ? ` – ${t("match.you", "you")}` : "",
          s.kind === "open" && seat === null ? h("button", { "data-testid": `join-seat-${i}`, onclick: () => joinSeat(i) }, t("match.take_seat", "Take this seat")) : null,
          canAddAi && (seat !== null || !m.seats.some((x) => x.kind === "human"))
            ? h("button", { "data-testid": `add-ai-${i}`, onclick: () => addAi(i) }, t("match.add_ai", "Add AI")) : null);
      });
      const inviteUrl = `${location.origin}/match/${matchId}`;
      const nameBox = seat === null && m.seats.some((s) => s.kind === "open")
        ? h("label.row", {}, t("lobby.your_name", "Your name") + " ", h("input", { type: "text", "data-testid": "join-name" })) : null;
      seatsEl.replaceChildren(...[h("h3", {}, t("match.seats", "Seats")), nameBox, h("ul", {}, rows),
        m.seats.some((s) => s.kind === "open") ? h("p", {}, t("match.invite", "Invite others with this link:") + " ",
          h("code", { "data-testid": "invite-link" }, inviteUrl)) : null,
        seat !== null ? h("p.muted", {}, t("match.seat_link", "Your seat link (keep it private, it lets you come back):") + " ",
          h("code", { "data-testid": "seat-link" }, location.origin + seatLink(matchId, seat, token))) : null].filter(Boolean));
    }
    async function joinSeat(i) {
      const input = seatsEl.querySelector("[data-testid=join-name]");
      const name = input ? input.value : "";
      try {
        const res = await api(`/api/matches/${matchId}/seats/${i}/join`, { method: "POST", body: { name } });
        rememberSeat(matchId, i, res.token);
        navigate(seatLink(matchId, i, res.token));
      } catch (e) { toast(e.message); }
    }
    async function leaveSeat() {
      try {
        await api(`/api/matches/${matchId}/seats/${seat}/leave`, { method: "POST", body: { token } });
        const all = mySeats();
        delete all[matchId];
        localStorage.setItem("spacetable.seats", JSON.stringify(all));
        navigate(`/match/${matchId}`);
      } catch (e) { toast(e.message); }
    }
    async function addAi(i) {
      try {
        await api(`/api/matches/${matchId}/seats/${i}/ai`, { method: "POST", body: { by_seat: seat, token } });
      } catch (e) { toast(e.message); }
    }
    function drawBoard() {
      const r = S.renderer(snap.match.game) || window.SpacetableGeneric;
      try { r.render(boardEl, snap.view, ctx()); } catch (e) {
        console.error(e);
        window.SpacetableGeneric.render(boardEl, snap.view, ctx());
      }
    }
    function drawLegal() {
      const legal = snap.legal || [];
      const items = legal.map((a, i) => h("button.action", {
        "data-testid": `action-${i}`, "data-action": JSON.stringify(a), onclick: () => send(a),
      }, actionLabel(snap.match.game, a)));
      const more = snap.legal_complete === false
        ? h("p.muted", { "data-testid": "legal-partial", "data-count": String(snap.legal_count) },
          t("match.legal_partial", "{shown} of {count} possible actions shown; the board composes the others",
            { shown: legal.length, count: snap.legal_count }))
        : null;
      legalEl.replaceChildren(...[h("h3", {}, t("match.your_actions", "Your actions")), more,
        legal.length ? h("div.action-list", {}, items) : h("p.muted", {}, t("match.no_actions", "Nothing to do right now"))]
        .filter(Boolean));
    }
    function logItem(e) {
      const who = seatName(snap.match, e.seat);
      const what = e.text || (e.action ? actionLabel(snap.match.game, e.action) : t("match.hidden_action", "(hidden)"));
      const tag = e.source === "timeout" ? ` [${t("match.timeout", "time out")}]` : "";
      return h("li", { "data-testid": "log-entry", "data-index": e.index }, `${who}: ${what}${tag}`);
    }
    function drawLog() { logEl.replaceChildren(...(snap.log || []).map(logItem)); logEl.scrollTop = logEl.scrollHeight; }
    function drawUndo() {
      const m = snap.match;
      const req = m.undo_request;
      const items = [];
      if (seat !== null && m.status === "running") {
        items.push(h("button", { "data-testid": "undo", onclick: () => ws && ws.send(JSON.stringify({ type: "undo" })) }, t("match.undo", "Undo")));
      }
      if (seat !== null && m.status !== "finished") {
        items.push(h("button", { "data-testid": "leave-seat", onclick: leaveSeat }, t("match.leave", "Leave seat")));
      }
      if (req && seat !== null && req.waiting.includes(seat)) {
        items.push(h("div.banner", { "data-testid": "undo-request" }, t("match.undo_asked", "{who} asks to take back a move.", { who: seatName(m, req.seat) }),
          h("button", { "data-testid": "undo-accept", onclick: () => ws.send(JSON.stringify({ type: "undo_accept" })) }, t("match.accept", "Accept")),
          h("button", { "data-testid": "undo-decline", onclick: () => ws.send(JSON.stringify({ type: "undo_decline" })) }, t("match.decline", "Decline"))));
      } else if (req) {
        items.push(h("div.banner", { "data-testid": "undo-pending" }, t("match.undo_pending", "Undo requested; waiting for consent.")));
      }
      undoEl.replaceChildren(...items);
    }
    function drawResult() {
      const m = snap.match;
      const out = m.outcome;
      if (!out) { resultEl.hidden = true; return; }
      const winners = out.winners.map((i) => seatName(m, i));
      const mine = seat !== null && out.winners.includes(seat);
      resultEl.hidden = false;
      resultEl.replaceChildren(h("h2", { "data-testid": "result-title" },
        winners.length ? (mine ? t("result.you_won", "You won!") : t("result.winner", "Winner: {who}", { who: winners.join(", ") })) : t("result.draw", "Draw")),
      h("p", {}, `${t("result.ending", "Ending")}: ${t("ending." + out.kind, out.kind)}`),
      h("table", {}, h("tbody", {}, m.seats.map((s, i) => h("tr", {}, h("td", {}, seatName(m, i)), h("td", { "data-testid": `score-${i}` }, String(out.scores[i])))))),
      link(`/replay/${matchId}`, t("result.replay", "Watch the replay"), { "data-testid": "result-replay" }));
    }
    function drawAll() { drawHead(); drawSeats(); drawBoard(); drawLegal(); drawLog(); drawUndo(); drawResult(); }

    function connect() {
      // SRV-A5: the seat's token goes in the first message, never in the socket's URL
      const q = seat !== null ? `?seat=${seat}` : "";
      ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/matches/${matchId}${q}`);
      ws.onopen = () => { if (seat !== null) ws.send(JSON.stringify({ type: "auth", token: token || "" })); };
      ws.onmessage = async (ev) => {
        const msg = JSON.parse(ev.data);
        if (msg.type === "error") { sending = false; toast(errText(msg.error)); return; }
        if (msg.type === "snapshot") {
          snap = msg;
          await S.loadRenderer(snap.match.game, info().renderer);
          sending = false;
          drawAll();
        } else if (msg.type === "event") {
          if (!snap) return;
          const log = snap.log || [];
          log.push(msg.last);
          snap = { ...msg, log };
          sending = false;
          drawAll();
        }
      };
      // 4400-4499: refused for good (bad token, seat left, no such match); 4408 (idle) and the rest reconnect
      ws.onclose = (ev) => { if (!closed && !(ev.code >= 4400 && ev.code < 4500 && ev.code !== 4408)) setTimeout(connect, 1000); };
    }
    connect();
    clockTimer = setInterval(tickClock, 1000);
    return {
      cleanup() { closed = true; clearInterval(clockTimer); if (ws) ws.close(); },
      rerender() { if (snap) drawAll(); },
    };
  }

  // ------------------------------------------------------------------ replay
  async function replayPage(matchId) {
    const root = h("div.replay", { "data-testid": "replay-page" });
    app.replaceChildren(root);
    let data;
    try { data = await api(`/api/matches/${matchId}/replay`); } catch (e) { root.append(h("p", {}, e.message)); return { cleanup() {}, rerender() {} }; }
    await S.loadRenderer(data.match.game, gameInfo(data.match.game).renderer);
    let step = data.steps;
    const boardEl = h("div.board", { "data-testid": "board" });
    const stepEl = h("span", { "data-testid": "replay-step" });
    const lastEl = h("div", { "data-testid": "replay-last" });
    const logEl = h("ol.log", { "data-testid": "move-log" });
    async function show(n) {
      step = Math.max(0, Math.min(data.steps, n));
      const st = await api(`/api/matches/${matchId}/replay/${step}`);
      stepEl.textContent = `${step} / ${data.steps}`;
      const e = st.last;
      lastEl.textContent = e ? `${seatName(data.match, e.seat)}: ${e.text || actionLabel(data.match.game, e.action)}` : t("replay.start", "Start position");
      const r = S.renderer(data.match.game) || window.SpacetableGeneric;
      const ctx = { seat: null, legal: [], send() {}, t, lang: S.lang, version: step, match: data.match };
      try { r.render(boardEl, st.view, ctx); } catch (err) { window.SpacetableGeneric.render(boardEl, st.view, ctx); }
      logEl.querySelectorAll("li").forEach((li) => li.classList.toggle("current", Number(li.dataset.index) === step - 1));
    }
    logEl.replaceChildren(...data.log.map((e) => h("li", { "data-index": e.index, onclick: () => show(e.index + 1) },
      `${seatName(data.match, e.seat)}: ${e.text || actionLabel(data.match.game, e.action)}`)));
    root.append(h("h1", {}, `${t("replay.title", "Replay")}: ${data.match.game_name}`),
      h("div.controls", {},
        h("button", { "data-testid": "replay-first", onclick: () => show(0) }, "⏮"),
        h("button", { "data-testid": "replay-prev", onclick: () => show(step - 1) }, "◀"),
        stepEl,
        h("button", { "data-testid": "replay-next", onclick: () => show(step + 1) }, "▶"),
        h("button", { "data-testid": "replay-last", onclick: () => show(data.steps) }, "⏭")),
      lastEl, h("div.play", {}, boardEl, h("div.side", {}, h("div.card", {}, h("h3", {}, t("match.log", "Moves")), logEl))));
    await show(step);
    return { cleanup() {}, rerender() { show(step); } };
  }

  // ------------------------------------------------------------------ router
  async function route() {
    if (current && current.cleanup) current.cleanup();
    current = null;
    const path = location.pathname;
    let m;
    if ((m = path.match(/^\/match\/([\w-]+)/))) current = await matchPage(m[1]);
    else if ((m = path.match(/^\/replay\/([\w-]+)/))) current = await replayPage(m[1]);
    else current = await lobbyPage();
  }

  async function start() {
    const sel = document.getElementById("lang-select");
    const lang = S.initialLang();
    await S.setLang(lang);
    sel.value = lang;
    sel.addEventListener("change", async () => {
      await S.setLang(sel.value);
      if (current && current.rerender) await current.rerender();
      else await route();
    });
    try { games = await api("/api/games"); } catch (e) { toast(e.message); }
    window.addEventListener("popstate", route);
    await route();
    document.body.dataset.ready = "yes";
  }
  start();
})();
