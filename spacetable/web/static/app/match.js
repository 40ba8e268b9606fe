// The match page: every game plays in this frame. It keeps the socket, shows incoming moves one by one at a
// readable pace (with a skip button), highlights the last move, runs the picker on the renderer's board, sends
// actions, shows refusals with the rule's link, and holds the side panel (players, clocks, the renderer's status,
// composer and legend, the log, resign/draw offer/leave/share/undo, the folded list of every legal action).
import { html, useEffect, useLayoutEffect, useMemo, useRef, useState } from "./lib.js";
import { api, forgetSeat, mySeats, openSocket, rememberSeat, seatFromUrl, seatLink } from "./api.js";
import { isSignedIn, joinAsAccount } from "./account.js";
import { ActionMenu, BoardViewport, Tray, usePicker } from "./board.js";
import { ChatPanel } from "./callback.js";
import { RematchPanel, playAgain, useSeatPresence } from "./social.js";
import { ClockPanel, waitingText } from "./absent.js";
import { t, num } from "./i18n.js";
import { Icon } from "./icons.js";
import { NO_HL } from "./kit.js";
import { ActionList, Gone, Log, Players, Result, clockText, seatNamer, useNow } from "./parts.js";
import { loadRenderer } from "./renderers.js";
import { RulesButton, phaseKey, useRulesDrawer } from "./guide.js";
import { Button, CopyField, Dialog, Fold, clearNotices, notify, notifyError, useConfirm } from "./ui.js";

/** Milliseconds between two moves shown one after the other (the opponent's and the AI's moves). */
export const PACE = 850;
const SEAT_COLOURS = ["#e0524a", "#4a8fe0", "#46b86a", "#e0a63a", "#a070d8"];

function frameOf(msg, last) {
  return { view: msg.view, last, version: msg.version, match: msg.match, to_act: msg.to_act };
}

function credentials(matchId) {
  const fromUrl = seatFromUrl();
  if (fromUrl) { rememberSeat(matchId, fromUrl.seat, fromUrl.token); return fromUrl; }
  const mine = mySeats()[matchId];
  return mine || null;
}

/** `tutor` (optional, app/tutorial.js): a scripted lesson riding on the match: `guard(action)` may refuse the
 *  player's action before it is sent, `onState(latest, shown)` follows the match, `panel` is shown above the board. */
export function MatchPage({ matchId, lobby, navigate, lang, tutor }) {
  const cred = useMemo(() => credentials(matchId), [matchId]);
  const seat = cred ? cred.seat : null;
  const token = cred ? cred.token : null;
  const [conn, setConn] = useState({ state: "connecting" });
  const [latest, setLatest] = useState(null);
  const [shown, setShown] = useState(null);
  const [qlen, setQlen] = useState(0);
  const [renderer, setRenderer] = useState(null);
  const [pending, setPending] = useState(false);
  const [ui, setUiRaw] = useState({});
  const [share, setShare] = useState(false);
  const [resultOpen, setResultOpen] = useState(true);
  const [confirmEl, confirm] = useConfirm();
  const queue = useRef([]);
  const lastShownAt = useRef(0);
  // the version of this seat's own latest move: a renderer reacts to it even when the page shows a later move first
  const acted = useRef(null);
  const sock = useRef(null);
  // the chat panels listening to the socket (issue 21): messages are pushed to them, not polled
  const chatHub = useMemo(() => {
    const listeners = new Set();
    return {
      listen(fn) { listeners.add(fn); return () => listeners.delete(fn); },
      tell(msg) { for (const fn of listeners) fn(msg); },
      send(obj) { return !!(sock.current && sock.current.send(obj)); },
    };
  }, [matchId]);
  const latestRef = useRef(null);
  latestRef.current = latest;

  const game = latest ? lobby.find((g) => g.id === latest.match.game) : null;
  const agentLevels = useMemo(() => Object.fromEntries(((game && game.agents) || []).map((a) => [a.name, a.level])), [game]);

  // ------------------------------------------------------------------------------------------ socket
  useEffect(() => {
    const handlers = {
      status(state, info) { setConn({ state, ...info }); },
      message(msg) {
        if (msg.type === "chat" || msg.type === "snapshot" || (msg.type === "error" && String(msg.id || "").startsWith("chat-"))) {
          chatHub.tell(msg);  // a chat message, a (re)connection to catch up after, or a message refused
          if (msg.type === "chat") return;
        }
        if (msg.type === "snapshot") {
          queue.current = [];
          setQlen(0);
          setLatest(msg);
          setShown(frameOf(msg, msg.log.length ? msg.log[msg.log.length - 1] : null));
          setPending(false);
        } else if (msg.type === "event") {
          const prev = latestRef.current;
          if (!prev) return;
          const next = { ...prev, ...msg, log: [...prev.log, msg.last] };
          latestRef.current = next;
          setLatest(next);
          const frame = frameOf(msg, msg.last);
          if (msg.last.seat === seat && msg.last.source === "player") {
            acted.current = msg.version;
            queue.current = [];
            setQlen(0);
            setShown(frame);
            lastShownAt.current = Date.now();
            setPending(false);
          } else if (msg.last.sealed && !queue.current.length) {
            // another seat's sealed decision: nothing to watch (a mark that it decided), shown at once so that a
            // seat composing its own simultaneous decision (a plan, a purchase) is not interrupted
            setShown(frame);
          } else {
            queue.current.push(frame);
            setQlen(queue.current.length);
          }
        } else if (msg.type === "error") {
          setPending(false);
          notifyError(msg.error);
        } else if (msg.type === "undo") {
          if (!msg.done && msg.waiting) notify({ kind: "info", text: t("match.undo_pending") });
        }
      },
    };
    sock.current = openSocket(matchId, seat, token, handlers);
    return () => { sock.current.close(); clearNotices(); };
  }, [matchId, seat, token]);

  useEffect(() => { if (sock.current && latest) sock.current.setLang(lang); }, [lang]);

  useEffect(() => {
    if (!latest) return;
    const g = lobby.find((x) => x.id === latest.match.game);
    loadRenderer(latest.match.game, g ? g.renderer : false).then((r) => setRenderer(() => r));
  }, [latest && latest.match.game]);

  // --------------------------------------------------------------------------- moves one by one
  useEffect(() => {
    if (!queue.current.length) return undefined;
    const since = Date.now() - lastShownAt.current;
    const delay = since >= PACE ? 80 : PACE - since;
    const id = setTimeout(() => {
      const f = queue.current.shift();
      setQlen(queue.current.length);
      if (f) { setShown(f); lastShownAt.current = Date.now(); }
    }, delay);
    return () => clearTimeout(id);
  }, [qlen, shown]);

  function skip() {
    const q = queue.current;
    if (!q.length) return;
    const f = q[q.length - 1];
    queue.current = [];
    setQlen(0);
    setShown(f);
    lastShownAt.current = Date.now();
  }

  // ---------------------------------------------------------------------------------------- acting
  const caughtUp = !!(latest && shown && shown.version === latest.version && qlen === 0);
  const running = latest && latest.match.status === "running";
  const myTurn = !!(latest && seat !== null && running && latest.to_act.includes(seat));
  const interactive = caughtUp && myTurn && !pending;
  const legal = latest && myTurn ? latest.legal || [] : [];
  const legalText = latest && myTurn ? latest.legal_text || [] : [];
  const decisionKey = myTurn ? `${seat}|${legalText.join("\n")}` : "none";

  // a new decision starts from an empty composer before the paint, as the picker's selection does (usePicker)
  useLayoutEffect(() => { setUiRaw({}); }, [decisionKey]);
  function setUi(patch) { setUiRaw((u) => ({ ...u, ...(typeof patch === "function" ? patch(u) : patch) })); }

  function play(action) {
    const cur = latestRef.current;
    if (!cur) return;
    clearNotices();
    if (tutor && tutor.guard && !tutor.guard(action)) return;
    if (!sock.current.send({ type: "action", version: cur.version, action })) {
      notify({ kind: "error", text: t("conn.offline") });
      return;
    }
    setPending(true);
    setTimeout(() => setPending(false), 10000);
  }
  async function check(action) {
    const cur = latestRef.current;
    return api(`/api/matches/${matchId}/check`, { body: { seat, token, version: cur.version, action } });
  }
  const [suggestion, setSuggestion] = useState(null);
  async function askHint() {
    try {
      const res = await api(`/api/matches/${matchId}/hint`, { body: { seat, token } });
      setSuggestion(res);
      notify({ kind: "info", text: t("match.hint_text", { move: res.text, n: res.hints_used }) });
    } catch (e) { notifyError(e); }
  }
  async function fetchLegal(offset = 0, limit = 1000) {
    return api(`/api/matches/${matchId}/legal?seat=${seat}&offset=${offset}&limit=${limit}`, { token });
  }

  const view = shown ? shown.view : null;
  const rend = renderer || { kind: "loading", Board: () => null };
  const picker = usePicker({
    renderer: rend, view, legal: interactive ? legal : [], legalText, enabled: interactive, play, check, ui, setUi,
    decisionKey, you: seat,
  });
  const [drawer, openDrawer] = useRulesDrawer(latest ? latest.match.game : null, lang, view && renderer ? phaseKey(renderer, view) : null);
  useEffect(() => { if (tutor && tutor.onState && latest) tutor.onState(latest, shown); }, [latest && latest.version, shown && shown.version, latest && latest.match.status]);

  // ------------------------------------------------------------------------------------- seats
  async function join(i, name) {
    try {
      const res = isSignedIn() ? await joinAsAccount(matchId, i)
        : await api(`/api/matches/${matchId}/seats/${i}/join`, { body: { name } });
      rememberSeat(matchId, i, res.token);
      navigate(seatLink(matchId, i, res.token), { reload: true });
    } catch (e) { notifyError(e); }
  }
  async function addAi(i, agent) {
    try { await api(`/api/matches/${matchId}/seats/${i}/ai`, { body: { agent, by_seat: seat, token } }); } catch (e) { notifyError(e); }
  }
  async function leave() {
    const ok = await confirm({ title: t("leave.title"), text: t("leave.text"), yes: t("leave.yes"), no: t("leave.no"), danger: true });
    if (!ok) return;
    try {
      await api(`/api/matches/${matchId}/seats/${seat}/leave`, { body: { token } });
      forgetSeat(matchId);
      navigate(`/match/${matchId}`, { reload: true, forget: true });
    } catch (e) { notifyError(e); }
  }
  async function resign() {
    const ok = await confirm({ title: t("resign.title"), text: t("resign.text"), yes: t("resign.yes"), no: t("resign.no"), danger: true });
    if (ok) play({ type: "resign" });
  }
  async function offerDraw() {
    const ok = await confirm({ title: t("draw.title"), text: t("draw.text"), yes: t("draw.yes"), no: t("draw.no") });
    if (ok) play({ type: "offer_draw" });
  }
  function undo() { sock.current.send({ type: "undo" }); }
  async function rematch() { await playAgain(matchId, seat, token, navigate); }

  // --------------------------------------------------------------------------------------- render
  const now = useNow(!!(latest && latest.match.deadline));
  const seen = useSeatPresence(matchId, conn.state);
  // this page's own seat is at the table while its socket is live, whatever the last presence read said
  const present = seen && seat !== null && conn.state === "live" ? seen.map((here, i) => here || i === seat) : seen;
  if (conn.state === "gone") return html`<${Gone} error=${conn.error} matchId=${matchId} navigate=${navigate} />`;
  if (!latest || !shown) {
    return html`<div class="loading card" data-testid="match-loading" aria-busy="true">
      ${conn.state === "stopped" ? html`<${Stopped} retry=${() => sock.current.retry()} />` : html`<p>${t("conn.connecting")}</p>`}</div>`;
  }
  const m = latest.match;
  const seatName = seatNamer(m, agentLevels, seat);
  const colourOf = (i) => {
    try { return (rend.seatColour && rend.seatColour(view, i)) || SEAT_COLOURS[i % SEAT_COLOURS.length]; } catch { return SEAT_COLOURS[i % 5]; }
  };
  const lastPlaces = new Set();
  if (shown.last && rend.lastPlaces && shown.last.action) {
    try { for (const p of rend.lastPlaces(shown.last, view) || []) lastPlaces.add(p); } catch (e) { console.warn(e); }
  }
  // a hint is shown on the board where the renderer can place a move (until the position changes)
  if (suggestion && suggestion.version === latest.version && rend.lastPlaces) {
    try {
      const places = rend.lastPlaces({ seat, action: suggestion.action }, view) || [];
      if (places.length) { lastPlaces.clear(); for (const p of places) lastPlaces.add(p); }
    } catch (e) { console.warn(e); }
  }
  const hl = { ...picker.hl, last: lastPlaces };
  const props = {
    view, seat, you: seat, legal: interactive ? legal : [], legalText, legalCount: latest.legal_count, legalComplete: latest.legal_complete,
    hl: rend.kind === "module" ? hl : NO_HL, ui, setUi, play, check, fetchLegal, t, num, lang, seatName, colourOf, match: m,
    version: latest.version, toAct: shown.to_act, interactive, last: shown.last, replay: false, renderer: rend,
    acted: acted.current,
  };
  const toAct = shown.to_act;
  let turn;
  if (m.status === "open") turn = t("match.waiting_players");
  else if (m.status === "finished") turn = t("match.over");
  else if (myTurn && caughtUp) turn = t("match.your_turn");
  else if (!caughtUp && shown.last && shown.last.seat !== seat) turn = t("match.showing_moves", { who: seatName(shown.last.seat) });
  else turn = waitingText(m, Date.now() / 1000, seatName) || t("match.waiting_for", { who: toAct.map((i) => seatName(i)).join(", ") });
  const call = (fn, fallback = null) => { try { return fn ? fn(props) : fallback; } catch (e) { console.warn(e); return fallback; } };
  const phase = m.status === "finished" ? null : call(rend.phase && ((p) => rend.phase(p.view, t)));
  const turnLabel = call(rend.turn && ((p) => rend.turn(p.view, t))) || t("match.move_n", { n: num(shown.version) });
  const hint = myTurn && caughtUp ? call(rend.hint) || t(picker.hl.sources.size ? "play.hint_select" : "play.hint_choose") : null;
  const legacyList = rend.kind !== "module";
  const canAct = seat !== null && m.status !== "finished";
  const hasOpen = m.seats.some((s) => s.kind === "open");
  const deadline = m.deadline && m.status === "running" ? m.deadline - now : null;
  // the core draw agreement (SRV-L5): the pending offer and the draw moves open to this seat, on its turn or not
  const draw = running && latest.draw ? latest.draw : null;
  const drawMoves = draw && seat !== null ? draw.moves : [];

  return html`<div class="match" data-testid="match-page" data-match=${matchId} data-seat=${seat ?? "spectator"} data-game=${m.game}
      data-caught-up=${caughtUp ? "yes" : "no"} data-renderer=${rend.kind}>
    <h1 class="sr-only" data-testid="page-title">${t("game." + m.game + ".name")}</h1>
    <section class="board-col" aria-label=${t("match.board")}>
      <div class="statusbar">
        <span class="turn" data-testid="turn-indicator" data-my-turn=${myTurn ? "yes" : "no"}>${turn}</span>
        ${phase ? html`<span class="phase" data-testid="phase">${phase}</span>` : null}
        <span class="turn-label" data-testid="version" data-version=${String(latest.version)}>${turnLabel}</span>
        ${deadline !== null ? html`<span class="clock"><${Icon} name="clock" size=${16} /> ${clockText(deadline)}</span>` : null}
        <span class="sr-only" data-testid="match-status" data-status=${m.status}>${t("status." + m.status)}</span>
        ${m.open_seed ? html`<span class="tag" data-testid="open-seed" title=${t("lobby.open_seed_help")}>${t("lobby.open_seed")}</span>` : null}
        ${seat === null ? html`<span class="tag" data-testid="spectating">${t("match.spectator")}</span>`
          : html`<span class="sr-only" data-testid="my-seat">${seatName(seat)}</span>`}
        <span class="grow"></span>
        <span class="match-tools" role="group" aria-label=${t("match.controls")}>
          ${canAct && running && latest.log.some((e) => e.seat === seat && e.source === "player")
            ? html`<${Button} icon="undo" label=${t("match.undo")} onClick=${undo} testid="undo" kind="tool" />` : null}
          ${canAct && running && myTurn && m.seats.every((x, i) => i === seat || x.kind === "ai")
            ? html`<${Button} icon="eye" label=${t("match.hint")} onClick=${askHint} testid="ask-hint" kind="tool" />` : null}
          ${canAct && running ? html`<${Button} icon="flag" label=${t("match.resign")} onClick=${resign} testid="resign" kind="tool" />` : null}
          ${canAct && running && drawMoves.includes("offer_draw") ? html`<${Button} icon="handshake" label=${t("match.offer_draw")}
            onClick=${offerDraw} testid="offer-draw" kind="tool" disabled=${pending} />` : null}
          <${RulesButton} onOpen=${() => openDrawer()} />
          <${Button} icon="share" label=${t("match.share")} onClick=${() => setShare(true)} testid="share" kind="tool" />
          <${Button} icon="eye" label=${t(m.status === "finished" ? "match.replay" : "match.review")} href=${"/replay/" + matchId} kind="tool"
            onClick=${(e) => { e.preventDefault(); navigate("/replay/" + matchId); }} testid="review" />
          ${canAct ? html`<${Button} icon="leave" label=${t("match.leave")} onClick=${leave} testid="leave-seat" kind="tool" />` : null}
          ${m.outcome && !resultOpen && caughtUp ? html`<${Button} icon="trophy" label=${t("match.show_result")} onClick=${() => setResultOpen(true)} testid="show-result" kind="tool" />` : null}
        </span>
      </div>
      ${tutor && tutor.panel ? tutor.panel : null}
      ${draw && draw.offer.by !== null ? html`<${DrawBanner} offer=${draw.offer} moves=${drawMoves} seat=${seat} seatName=${seatName}
        play=${play} pending=${pending} />` : null}
      <div class="board-wrap">
        <${BoardViewport} onPlace=${picker.onPlace} onDrag=${rend.drag ? picker.onDrag : null} resetKey=${matchId} label=${t("match.board")} focus=${call(rend.focus && ((p) => rend.focus(p.view, seat)))}
          footer=${hint ? html`<p class="hint" data-testid="hint"><${Icon} name="info" size=${16} /> <span>${hint}</span></p>` : null}>
          <${rend.Board} ...${props} />
        </${BoardViewport}>
        ${qlen > 0 ? html`<div class="skip"><${Button} icon="skip" label=${t("match.skip", { n: qlen })} onClick=${skip} testid="skip" /></div>` : null}
        ${conn.state === "retrying" || conn.state === "stopped" ? html`<div class="conn-banner" role="status" data-testid="conn">
          ${conn.state === "stopped" ? html`<${Stopped} retry=${() => sock.current.retry()} />` : t("conn.retrying", { s: Math.round((conn.delay || 0) / 1000) })}</div>` : null}
        ${m.status === "open" ? html`<div class="overlay-card card" data-testid="waiting-card">
          <p>${t("match.waiting_players")}</p>
          ${hasOpen ? html`<${CopyField} label=${t("share.invite")} value=${location.origin + "/match/" + matchId} testid="invite-link" />` : null}</div>` : null}
        ${m.outcome && resultOpen && caughtUp ? html`<div class="overlay-result"><${Result} match=${m} mySeat=${seat} seatName=${seatName} renderer=${rend}
          view=${view} navigate=${navigate} matchId=${matchId} onClose=${() => setResultOpen(false)}
          onRematch=${seat !== null && m.seats.some((s) => s.kind === "ai") ? rematch : null} /></div>` : null}
      </div>
      ${rend.Tray ? html`<${Tray} onPlace=${picker.onPlace} label=${t("board.tray")}><${rend.Tray} ...${props} /></${Tray}>` : null}
      <${ActionMenu} menu=${picker.menu} onPick=${picker.pick} onClose=${picker.closeMenu} />
    </section>
    <aside class="side" aria-label=${t("match.side")}>
      ${rend.Composer ? html`<${rend.Composer} ...${props} />` : null}
      <${Players} match=${m} toAct=${toAct} seatName=${seatName} colourOf=${colourOf} mySeat=${seat} now=${now}
        onJoin=${join} onAddAi=${addAi} agents=${game && game.agents} canAct=${seat !== null && m.status === "open"} present=${present} />
      <${RematchPanel} match=${m} matchId=${matchId} seat=${seat} token=${token} navigate=${navigate} />
      ${rend.Status ? html`<${rend.Status} ...${props} />` : null}
      ${rend.Results ? html`<${rend.Results} ...${props} />` : null}
      ${m.undo_request ? html`<${UndoBanner} req=${m.undo_request} seat=${seat} seatName=${seatName} sock=${sock} />` : null}
      <${Log} log=${latest.log.slice(0, shown.version)} seatName=${seatName} colourOf=${colourOf} />
      <${ClockPanel} match=${m} matchId=${matchId} seat=${seat} token=${token} seatName=${seatName} now=${now} />
      <${ChatPanel} matchId=${matchId} seat=${seat} token=${token} hub=${chatHub} />
      ${seat !== null && m.status === "finished" ? html`<${ChatPanel} matchId=${matchId} seat=${null} token=${null} hub=${chatHub} />` : null}
      ${rend.Legend ? html`<${Fold} summary=${html`<${Icon} name="legend" /> ${t("match.legend")}`} testid="legend" cls="card legend-fold"><${rend.Legend} ...${props} /></${Fold}>` : null}
      ${myTurn || legacyList ? html`<${ActionList} legal=${legal} legalText=${legalText} legalCount=${latest.legal_count}
        legalComplete=${latest.legal_complete} play=${play} open=${legacyList} enabled=${interactive} />` : null}
    </aside>
    <${ShareDialog} open=${share} onClose=${() => setShare(false)} matchId=${matchId} seat=${seat} token=${token} hasOpen=${hasOpen}
      seed=${m.seed} />
    ${confirmEl}
    ${drawer}
  </div>`;
}

function Stopped({ retry }) {
  return html`<span>${t("conn.stopped")}</span> <${Button} icon="refresh" label=${t("conn.retry")} onClick=${retry} testid="reconnect" />`;
}

function UndoBanner({ req, seat, seatName, sock }) {
  const asked = seat !== null && req.waiting.includes(seat);
  if (!asked) return html`<div class="banner card" data-testid="undo-pending">${t("match.undo_pending")}</div>`;
  return html`<div class="banner card" data-testid="undo-request">${t("match.undo_asked", { who: seatName(req.seat) })}
    <div class="row-buttons">
      <${Button} label=${t("match.accept")} kind="primary" testid="undo-accept" onClick=${() => sock.current.send({ type: "undo_accept" })} />
      <${Button} label=${t("match.decline")} testid="undo-decline" onClick=${() => sock.current.send({ type: "undo_decline" })} /></div></div>`;
}

/** A pending draw offer: the seats that must answer get Accept / Decline, everybody else a line saying who offered. */
function DrawBanner({ offer, moves, seat, seatName, play, pending }) {
  const mine = seat !== null && offer.by === seat;
  const who = seatName(offer.by, { you: false });
  if (!moves.includes("accept_draw")) {
    return html`<div class="banner card draw-banner" data-testid="draw-pending" role="status">
      ${mine ? t("draw.you_offered") : t("draw.offered", { who })}</div>`;
  }
  return html`<div class="banner card draw-banner" data-testid="draw-offer" role="alertdialog" aria-label=${t("draw.offered", { who })}>
    <span data-testid="draw-offer-text">${t("draw.offered", { who })}</span>
    <div class="row-buttons">
      <${Button} icon="check" label=${t("match.accept")} kind="primary" testid="draw-accept" disabled=${pending}
        onClick=${() => play({ type: "accept_draw" })} />
      <${Button} icon="close" label=${t("match.decline")} testid="draw-decline" disabled=${pending}
        onClick=${() => play({ type: "decline_draw" })} /></div></div>`;
}

function ShareDialog({ open, onClose, matchId, seat, token, hasOpen, seed }) {
  return html`<${Dialog} open=${open} onClose=${onClose} title=${t("share.title")} testid="share-dialog">
    ${hasOpen ? html`<${CopyField} label=${t("share.invite")} value=${location.origin + "/match/" + matchId} testid="invite-link-share"
      hint=${t("share.invite_hint")} />` : null}
    ${seat !== null ? html`<${CopyField} label=${t("share.seat")} value=${location.origin + seatLink(matchId, seat, token)} testid="seat-link"
      hint=${t("share.seat_hint")} />` : null}
    <${CopyField} label=${t("share.watch")} value=${location.origin + "/match/" + matchId} testid="watch-link" hint=${t("share.watch_hint")} />
    ${seed !== null && seed !== undefined ? html`<p class="small" data-testid="seed">${t("match.seed", { seed })}</p>` : null}
  </${Dialog}>`;
}
