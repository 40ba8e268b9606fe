// The rule hook of the frame: a rule id (from a refusal, a game's own panel, a hint) opens that rule's text in the
// players' guide, in the player's language. The match page registers its rules drawer as the opener; elsewhere the
// guide page opens (/guide/<game>#<rule id>). Game code calls openRule(gameId, ruleId) or links ruleHref(...).
// The developers' rules documents (docs/rules) are never shown to players.
let opener = null;

/** Register the function that opens a rule in place (the match page's drawer); returns the unregister function. */
export function setRuleOpener(fn) {
  opener = fn;
  return () => { if (opener === fn) opener = null; };
}

/** The guide page's address for a rule. */
export function ruleHref(gameId, ruleId) {
  return `/guide/${encodeURIComponent(gameId)}` + (ruleId ? `#${encodeURIComponent(ruleId)}` : "");
}

/** Open a rule in place when the page can (true), else return false (the caller's link opens the guide page). */
export function openRuleHere(gameId, ruleId) {
  return !!(opener && gameId && ruleId && opener(gameId, ruleId));
}

/** Open a rule: in the drawer when there is one, else the guide page in a new tab. */
export function openRule(gameId, ruleId) {
  if (openRuleHere(gameId, ruleId)) return;
  window.open(ruleHref(gameId, ruleId), "_blank", "noopener");
}

/** The game and rule a refusal's rule_url names ("/rules/<game>#<id>" or "/guide/<game>#<id>"). */
export function parseRuleUrl(url) {
  const m = /^\/(?:rules|guide)\/([\w-]+)(?:#(.+))?$/.exec(url || "");
  return m ? { game: m[1], rule: m[2] ? decodeURIComponent(m[2]) : null } : null;
}
