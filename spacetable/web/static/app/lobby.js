// The lobby: a card per game, "play the computer" in one click with each AI level named, "invite a friend",
// custom seats, presets with the other options folded (in plain words: option.<game>.<name>[.help|.<choice>]),
// and the lists of your matches, open matches (paged), running and finished ones.
import { html, useEffect, useMemo, useState } from "./lib.js";
import { api, mySeats, rememberSeat, seatLink } from "./api.js";
import { RatedChoice, createAsAccount, isSignedIn } from "./account.js";
import { cardOf } from "./gamecards.js";
import { t, tMaybe } from "./i18n.js";
import { Icon } from "./icons.js";
import { Button, CopyField, Fold, notify, notifyError } from "./ui.js";
import { LobbySocial, postChallenge, postSeek } from "./social.js";
import { tutorialProgress } from "./progress.js";
import { TimeControlFields, defaultTimeControl, timeControlBody, waitingText } from "./absent.js";

const PAGE = 6;

function gameName(g) { return tMaybe(`game.${g.id}.name`) || g.name; }
function playersText(g) {
  return g.min_players === g.max_players ? t("lobby.players_n", { n: g.min_players })
    : t("lobby.players_range", { min: g.min_players, max: g.max_players });
}
function optLabel(g, o) { return tMaybe(`option.${g.id}.${o.name}`) || o.name.replace(/_/g, " "); }
function optHelp(g, o) { return tMaybe(`option.${g.id}.${o.name}.help`) || ""; }
function choiceLabel(g, o, c) {
  return tMaybe(`option.${g.id}.${o.name}.${c === null ? "none" : String(c)}`) || (c === null ? t("option.none") : String(c));
}

function GameCard({ g, selected, onSelect }) {
  const card = cardOf(g.id);
  return html`<li class=${"game-card" + (selected ? " selected" : "")}>
    <button type="button" class="game-card-main" onClick=${onSelect} aria-pressed=${selected ? "true" : "false"} data-testid=${"game-card-" + g.id}>
      <${card.Picture} />
      <span class="game-card-text"><span class="game-card-name">${gameName(g)}</span>
        <span class="game-card-tagline">${tMaybe(`game.${g.id}.tagline`) || ""}</span>
        <span class="game-card-meta">${playersText(g)} · ${tMaybe(`game.${g.id}.length`) || ""}</span></span>
    </button>
    ${g.guide || g.tutorial ? html`<span class="game-card-rules">
      ${g.tutorial ? html`<a href=${"/tutorial/" + g.id} data-testid=${"learn-link-" + g.id}><${Icon} name="play" size=${16} /> ${t("lobby.learn")}${
        (tutorialProgress()[g.id] || {}).done ? html` <span class="tag" data-testid=${"learn-done-" + g.id}>✓ ${t("tutorial.progress_done")}</span>` : null}</a>` : null}
      ${g.guide ? html`<a href=${"/guide/" + g.id} target="_blank" rel="noopener" data-testid=${"rules-link-" + g.id}>
        <${Icon} name="book" size=${16} /> ${t("lobby.rules")}</a>` : null}</span>` : null}
  </li>`;
}

function OptionInput({ g, o, value, onChange, error }) {
  const id = `opt-${g.id}-${o.name}`;
  const help = optHelp(g, o);
  let input;
  if (o.choices) {
    input = html`<select id=${id} data-testid=${"opt-" + o.name} value=${JSON.stringify(value)} onChange=${(e) => onChange(JSON.parse(e.target.value))}>
      ${o.choices.map((c) => html`<option value=${JSON.stringify(c)}>${choiceLabel(g, o, c)}</option>`)}</select>`;
  } else if (o.kind === "bool") {
    return html`<div class="option option-bool">
      <label class="check"><input id=${id} type="checkbox" data-testid=${"opt-" + o.name} checked=${!!value}
        onChange=${(e) => onChange(e.target.checked)} /> <span>${optLabel(g, o)}</span></label>
      ${help ? html`<p class="help">${help}</p>` : null}
    </div>`;
  } else if (o.kind === "str" && o.name.endsWith("_content")) { // a player's own content (a map file's text)
    input = html`<textarea id=${id} data-testid=${"opt-" + o.name} rows="3" spellcheck="false"
      onInput=${(e) => onChange(e.target.value)}>${value ?? ""}</textarea>`;
  } else if (o.kind === "json") {
    input = html`<textarea id=${id} data-testid=${"opt-" + o.name} rows="3" spellcheck="false"
      onInput=${(e) => onChange({ raw: e.target.value })}>${value && value.raw !== undefined ? value.raw : value === null ? "" : JSON.stringify(value)}</textarea>`;
  } else {
    const numeric = o.kind === "int" || o.kind === "float";
    input = html`<input id=${id} type=${numeric ? "number" : "text"} data-testid=${"opt-" + o.name} value=${value ?? ""}
      min=${o.minimum ?? null} max=${o.maximum ?? null} step=${o.kind === "float" ? "any" : null}
      onInput=${(e) => onChange(numeric ? (e.target.value === "" ? "" : Number(e.target.value)) : e.target.value)} />`;
  }
  return html`<div class="option">
    <label for=${id}>${optLabel(g, o)}</label>${input}
    ${help ? html`<p class="help">${help}</p>` : null}
    ${error ? html`<p class="field-error" role="alert" data-testid=${"opt-error-" + o.name}>${error}</p>` : null}
  </div>`;
}

function CreatePanel({ g, navigate }) {
  const card = cardOf(g.id);
  const agents = g.agents || [];
  const [mode, setMode] = useState("computer");
  const [preset, setPreset] = useState(card.presets[0].id);
  const [values, setValues] = useState({});
  const [players, setPlayers] = useState(g.min_players);
  const [level, setLevel] = useState(() => (agents.find((a) => a.level === "medium") || agents.find((a) => a.default) || agents[0] || {}).name);
  const [name, setName] = useState(() => { try { return localStorage.getItem("spacetable.name") || ""; } catch { return ""; } });
  const [aiSeconds, setAiSeconds] = useState(1);
  const [timeControl, setTimeControl] = useState(defaultTimeControl);
  const [seats, setSeats] = useState({});
  const [errors, setErrors] = useState({});
  const [busy, setBusy] = useState(false);

  const presetConfig = (card.presets.find((p) => p.id === preset) || card.presets[0]).config;
  const valueOf = (o) => (o.name in values ? values[o.name] : o.name in presetConfig ? presetConfig[o.name] : o.default);
  function seatKind(i) {
    if (seats[i]) return seats[i];
    if (mode === "custom") return i === 0 ? "me" : agents.length ? "ai:" + level : "open";
    if (i === 0) return "me";
    return mode === "computer" && agents.length ? "ai:" + level : "open";
  }
  function setSeat(i, v) {
    const next = {};
    for (let k = 0; k < players; k++) next[k] = seatKind(k);
    if (v === "me") for (let k = 0; k < players; k++) if (next[k] === "me") next[k] = "open"; // one seat is yours
    next[i] = v;
    setSeats(next);
  }

  const [rated, setRated] = useState(false);
  const [opponent, setOpponent] = useState("");
  const [range, setRange] = useState({ min: "", max: "" });
  const [challengeLink, setChallengeLink] = useState(null);
  const social = mode === "challenge" || mode === "seek";
  async function create() {
    const config = { ...presetConfig };
    const errs = {};
    for (const o of g.options) {
      if (!(o.name in values)) continue;
      let v = values[o.name];
      if (o.kind === "json" && v && v.raw !== undefined) {
        if (v.raw.trim() === "") v = null;
        else {
          try { v = JSON.parse(v.raw); } catch (e) { errs[o.name] = t("lobby.bad_json"); continue; }
        }
      }
      if ((o.kind === "int" || o.kind === "float") && (v === "" || !Number.isFinite(v))) { errs[o.name] = t("lobby.bad_number"); continue; }
      config[o.name] = v;
    }
    setErrors(errs);
    if (Object.keys(errs).length) return;
    if (g.min_players !== g.max_players) config.players = social ? 2 : players;
    if (social) {  // a challenge or an open seek (social.js): the server seats both players once it is taken
      setBusy(true);
      try {
        const body = { game: g.id, config, rated, ...timeControlBody(timeControl) };
        if (mode === "seek") {
          await postSeek(body, range.min, range.max);
          notify({ kind: "ok", text: t("social.seek_posted") });
        } else {
          const res = await postChallenge(body, opponent.trim());
          if (opponent.trim()) notify({ kind: "ok", text: t("social.challenge_sent", { name: opponent.trim() }) });
          else setChallengeLink(location.origin + res.link);
        }
      } catch (e) { notifyError(e); } finally { setBusy(false); }
      return;
    }
    const ai = {};
    let mine = null;
    for (let i = 0; i < players; i++) {
      const k = seatKind(i);
      if (k.startsWith("ai:")) ai[i] = k.slice(3);
      if (k === "me" && mine === null) mine = i;
    }
    try { localStorage.setItem("spacetable.name", name); } catch { /* private mode */ }
    setBusy(true);
    try {
      const body = { game: g.id, config, ai_seats: ai, ai_seconds: Number(aiSeconds) || 1,
        ...timeControlBody(timeControl), player_name: name };
      if (mine !== null) body.join_seat = mine;
      const res = isSignedIn() && mine !== null ? await createAsAccount(body, rated && !Object.keys(ai).length)
        : await api("/api/matches", { body });
      if (res.token) {
        rememberSeat(res.match.id, res.seat, res.token);
        navigate(seatLink(res.match.id, res.seat, res.token));
      } else navigate(`/match/${res.match.id}`);
    } catch (e) { notifyError(e); } finally { setBusy(false); }
  }

  const modes = [["computer", "robot", t("lobby.mode_computer")], ["friend", "friend", t("lobby.mode_friend")], ["custom", "list", t("lobby.mode_custom")]];
  if (isSignedIn() && g.min_players <= 2) modes.push(["challenge", "friend", t("social.challenge")], ["seek", "eye", t("social.seek")]);
  return html`<section class="card create" data-testid="create-form" aria-labelledby="create-h">
    <h2 id="create-h">${t("lobby.new_match")}: ${gameName(g)}</h2>
    <div class="segmented" role="radiogroup" aria-label=${t("lobby.how")}>
      ${modes.map(([id, icon, label]) => html`<button type="button" role="radio" aria-checked=${mode === id ? "true" : "false"}
        class=${mode === id ? "on" : ""} data-testid=${"mode-" + id} onClick=${() => { setMode(id); setSeats({}); }}><${Icon} name=${icon} /> ${label}</button>`)}
    </div>
    ${g.min_players !== g.max_players && !social ? html`<div class="chips" role="radiogroup" aria-label=${t("lobby.players")}>
      <span class="chips-label">${t("lobby.players")}</span>
      ${Array.from({ length: g.max_players - g.min_players + 1 }, (_, k) => g.min_players + k).map((n) => html`<button type="button" role="radio"
        aria-checked=${players === n ? "true" : "false"} class=${"chip" + (players === n ? " on" : "")} data-testid=${"players-" + n}
        onClick=${() => { setPlayers(n); setSeats({}); }}>${n}</button>`)}</div>` : null}
    ${mode !== "friend" && !social && agents.length ? html`<div class="chips" role="radiogroup" aria-label=${t("lobby.level")}>
      <span class="chips-label">${t("lobby.level")}</span>
      ${agents.map((a) => html`<button type="button" role="radio" aria-checked=${level === a.name ? "true" : "false"}
        class=${"chip level" + (level === a.name ? " on" : "")} data-testid=${"level-" + a.name} title=${tMaybe("agent." + a.name) || a.description || ""}
        onClick=${() => { setLevel(a.name); setSeats({}); }}>${t("level." + a.level)}${agents.filter((b) => b.level === a.level).length > 1
          ? ` · ${tMaybe("agent." + a.name + ".name") || a.name}` : ""}${a.rating ? html` <small>${Math.round(a.rating)}</small>` : null}</button>`)}
      <span class="help">${tMaybe("agent." + level) || ""}</span></div>` : null}
    ${card.presets.length > 1 ? html`<div class="chips" role="radiogroup" aria-label=${t("lobby.variant")}>
      <span class="chips-label">${t("lobby.variant")}</span>
      ${card.presets.map((p) => html`<button type="button" role="radio" aria-checked=${preset === p.id ? "true" : "false"}
        class=${"chip" + (preset === p.id ? " on" : "")} data-testid=${"preset-" + p.id} onClick=${() => { setPreset(p.id); setValues({}); }}>
        ${tMaybe(`preset.${g.id}.${p.id}`) || t("preset.default")}</button>`)}
      <span class="help">${tMaybe(`preset.${g.id}.${preset}.help`) || ""}</span></div>` : null}
    ${mode === "custom" ? html`<div class="seats">${Array.from({ length: players }, (_, i) => html`<label class="inline-field">
      ${t("seat.player_n", { n: i + 1 })}
      <select data-testid=${"seat-kind-" + i} value=${seatKind(i)} onChange=${(e) => setSeat(i, e.target.value)}>
        <option value="me">${t("lobby.me")}</option><option value="open">${t("lobby.open")}</option>
        ${agents.map((a) => html`<option value=${"ai:" + a.name}>${t("seat.computer_level", { level: t("level." + a.level) })}</option>`)}
      </select></label>`)}</div>` : null}
    <${RatedChoice} rated=${rated} setRated=${setRated} show=${mode === "friend" || social} />
    ${social ? html`<div class="create-row social-fields">
      ${mode === "challenge" ? html`<label class="inline-field grow">${t("social.opponent")}
        <input type="text" maxlength="64" value=${opponent} placeholder=${t("social.opponent_placeholder")} data-testid="challenge-username"
          onInput=${(e) => setOpponent(e.target.value)} /></label>` : html`<label class="inline-field">${t("social.min_rating")}
        <input type="number" min="-1000" max="1000" step="1" value=${range.min} data-testid="seek-min" onInput=${(e) => setRange({ ...range, min: e.target.value })} /></label>
        <label class="inline-field">${t("social.max_rating")}
        <input type="number" min="-1000" max="1000" step="1" value=${range.max} data-testid="seek-max" onInput=${(e) => setRange({ ...range, max: e.target.value })} /></label>`}
      </div>
      <${TimeControlFields} value=${timeControl} onChange=${setTimeControl} game=${g} />
      ${challengeLink ? html`<${CopyField} label=${t("social.challenge_link")} value=${challengeLink} testid="challenge-link" />` : null}
      <div class="create-row"><${Button} kind="primary big" icon=${mode === "seek" ? "eye" : "friend"} disabled=${busy} onClick=${create}
        testid=${mode === "seek" ? "seek-post" : "challenge-create"} label=${mode === "seek" ? t("social.post_seek") : t("social.send_challenge")} /></div>` : html`
    <div class="create-row">
      <label class="inline-field grow">${t("lobby.your_name")}
        <input type="text" maxlength="100" value=${name} placeholder=${t("lobby.name_placeholder")} data-testid="player-name"
          onInput=${(e) => setName(e.target.value)} /></label>
      <${Button} kind="primary big" icon=${mode === "friend" ? "friend" : "play"} disabled=${busy} onClick=${create} testid="create-match"
        label=${mode === "computer" ? t("lobby.play_computer") : mode === "friend" ? t("lobby.invite_friend") : t("lobby.create")} />
    </div>`}
    <${Fold} summary=${t("lobby.more_options")} testid="more-options">
      <div class="options">
        ${g.options.map((o) => html`<${OptionInput} g=${g} o=${o} value=${valueOf(o)} error=${errors[o.name]}
          onChange=${(v) => setValues({ ...values, [o.name]: v })} />`)}
        ${agents.length ? html`<div class="option"><label for="ai-seconds">${t("lobby.ai_seconds")}</label>
          <input id="ai-seconds" type="number" min="0.05" max="120" step="0.05" value=${aiSeconds} data-testid="ai-seconds" onInput=${(e) => setAiSeconds(e.target.value)} />
          <p class="help">${t("lobby.ai_seconds_help")}</p></div>` : null}
        ${social ? null : html`<${TimeControlFields} value=${timeControl} onChange=${setTimeControl} game=${g} />`}
      </div>
    </${Fold}>
  </section>`;
}

function MatchList({ title, rows, lobby, testid, action, empty, waiting }) {
  const [page, setPage] = useState(0);
  const pages = Math.max(1, Math.ceil(rows.length / PAGE));
  const p = Math.min(page, pages - 1);
  const shown = rows.slice(p * PAGE, p * PAGE + PAGE);
  return html`<section class="card list" data-testid=${testid} aria-labelledby=${testid + "-h"}>
    <h2 id=${testid + "-h"}>${title} <span class="count">${rows.length}</span></h2>
    ${shown.length ? html`<ul class="matches">${shown.map((m) => {
      const g = lobby.find((x) => x.id === m.game);
      return html`<li data-testid="match-row" data-match=${m.id} data-status=${m.status}>
        <span class="match-game">${g ? gameName(g) : m.game_name}</span>
        ${m.open_seed ? html`<span class="tag" data-testid="open-seed" title=${t("lobby.open_seed_help")}>${t("lobby.open_seed")}</span>` : null}
        ${m.broken ? html`<span class="tag bad" data-testid="broken" title=${m.broken}>${t("lobby.broken")}</span>` : null}
        <span class="match-seats">${m.seats.map((s, i) => (s.kind === "open" ? t("seat.open_n", { n: i + 1 })
          : s.kind === "ai" ? t("seat.computer") : s.name || t("seat.player_n", { n: i + 1 }))).join(" · ")}</span>
        ${waiting && waitingText(m, Date.now() / 1000) ? html`<span class="muted small" data-testid="waiting-on">${waitingText(m, Date.now() / 1000)}</span>` : null}
        ${action(m)}</li>`;
    })}</ul>` : html`<p class="muted small">${empty}</p>`}
    ${pages > 1 ? html`<div class="pager">
      <${Button} icon="prev" iconOnly label=${t("lobby.prev_page")} disabled=${p === 0} onClick=${() => setPage(p - 1)} testid=${testid + "-prev"} />
      <span>${t("lobby.page", { n: p + 1, of: pages })}</span>
      <${Button} icon="next" iconOnly label=${t("lobby.next_page")} disabled=${p >= pages - 1} onClick=${() => setPage(p + 1)} testid=${testid + "-next"} />
    </div>` : null}
  </section>`;
}

export function LobbyPage({ lobby, navigate }) {
  const [gid, setGid] = useState(lobby.length ? lobby[0].id : null);
  const [matches, setMatches] = useState([]);
  useEffect(() => {
    let alive = true;
    async function load() {
      try {
        const data = await api("/api/matches");
        if (alive) setMatches(Array.isArray(data) ? data : data.matches || data.items || []);
      } catch (e) { /* the lists stay as they were; the next poll tries again */ }
    }
    load();
    const id = setInterval(load, 5000);
    return () => { alive = false; clearInterval(id); };
  }, []);
  const mine = mySeats();
  const g = lobby.find((x) => x.id === gid);
  const link = (url, label, testid, icon) => html`<${Button} href=${url} icon=${icon} label=${label} testid=${testid}
    onClick=${(e) => { e.preventDefault(); navigate(url); }} />`;
  const yours = matches.filter((m) => mine[m.id] && m.status !== "finished");
  const open = matches.filter((m) => m.status === "open");
  const running = matches.filter((m) => m.status === "running" && !mine[m.id]);
  const finished = matches.filter((m) => m.status === "finished");
  const yourAction = (m) => {
    const my = mine[m.id];
    const turn = m.to_act.includes(my.seat);
    return html`${turn ? html`<span class="badge" data-testid="your-turn">${t("lobby.your_turn")}</span>` : null}
      ${link(seatLink(m.id, my.seat, my.token), t("lobby.resume"), "resume", "play")}`;
  };
  return html`<div class="lobby" data-testid="lobby">
    <section class="games" aria-labelledby="games-h">
      <h1 id="games-h" class="sr-only">${t("lobby.games")}</h1>
      <ul class="game-cards">${lobby.map((x) => html`<${GameCard} g=${x} selected=${x.id === gid} onSelect=${() => setGid(x.id)} />`)}</ul>
    </section>
    ${g ? html`<${CreatePanel} key=${g.id} g=${g} navigate=${navigate} />` : html`<p class="card">${t("lobby.no_games")}</p>`}
    <div class="lists">
      <${LobbySocial} lobby=${lobby} navigate=${navigate} />
      ${yours.length ? html`<${MatchList} title=${t("lobby.your_matches")} rows=${yours} lobby=${lobby} testid="list-yours" action=${yourAction} empty="" waiting=${true} />` : null}
      <${MatchList} title=${t("lobby.open_matches")} rows=${open} lobby=${lobby} testid="list-open" empty=${t("lobby.none_open")}
        action=${(m) => (mine[m.id] ? yourAction(m) : link(`/match/${m.id}`, t("lobby.join"), "watch", "friend"))} />
      <${MatchList} title=${t("lobby.running_matches")} rows=${running} lobby=${lobby} testid="list-running" empty=${t("lobby.none")}
        action=${(m) => link(`/match/${m.id}`, t("lobby.watch"), "watch", "eye")} />
      <${MatchList} title=${t("lobby.finished_matches")} rows=${finished} lobby=${lobby} testid="list-finished" empty=${t("lobby.none")}
        action=${(m) => link(`/replay/${m.id}`, t("lobby.replay"), "replay-link", "eye")} />
    </div>
  </div>`;
}
