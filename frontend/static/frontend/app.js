// Shared helpers for every page: the API client, the room socket, DOM building,
// the games' words in the page's language.
// No game rules live here or anywhere in JS: boards ask the server for legal moves.
//
// Every script's own words go through Django's JavaScriptCatalog (/jsi18n/,
// loaded before this file): gettext, ngettext, and interpolate(text, {name},
// true) for %(name)s placeholders. The games' own words (a move described, a
// result's reason) come from the server as {"text", "args"} and are put in
// the page's language by App.words, from the games' catalogue (/jsi18n/games/).
"use strict";

const App = (() => {
  function cookie(name) {
    const found = document.cookie.split("; ").find((c) => c.startsWith(name + "="));
    return found ? decodeURIComponent(found.split("=")[1]) : "";
  }

  class ApiError extends Error {
    // ``data`` is the whole error body: some errors say where to go next
    // (409 already_paired carries the room and match of the pairing).
    constructor(status, code, detail, data) {
      super(detail);
      this.status = status;
      this.code = code;
      this.detail = detail;
      this.data = data || {};
    }
  }

  async function api(method, url, body) {
    const options = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    if (method !== "GET") options.headers["X-CSRFToken"] = cookie("csrftoken");
    let response;
    try {
      response = await fetch(url, options);
    } catch (error) {
      // fetch rejects only when no answer came at all (server down, network gone).
      throw new ApiError(0, "network", gettext("Cannot reach the server. Check your connection and try again."));
    }
    if (response.status === 204) return null;
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (!response.ok) {
      const code = data && data.code ? data.code : "error";
      const detail = data && data.detail ? data.detail : interpolate(gettext("request failed (%(status)s)"), { status: response.status }, true);
      throw new ApiError(response.status, code, detail, data);
    }
    return data;
  }

  // el("div", {class: "x", dataset: {col: 1}, onclick: fn}, child, "text", ...)
  function fill(node, attrs, children) {
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === "dataset") Object.assign(node.dataset, value);
      else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  function el(tag, attrs, ...children) {
    return fill(document.createElement(tag), attrs, children);
  }

  // The same for SVG elements (boards drawn as SVG: Quoridor, Eskimo).
  function svg(tag, attrs, ...children) {
    return fill(document.createElementNS("http://www.w3.org/2000/svg", tag), attrs, children);
  }

  // Close codes after which retrying cannot help: not logged in, no such room.
  const GIVE_UP = new Set([4401, 4404]);

  // A socket that reconnects with backoff; every (re)connect gets a fresh snapshot
  // (a room's state, or the player's waiting seeks on /ws/me/).
  //
  // It stops for good on close code 4401 (not logged in) or 4404 (no such
  // room) and tells handlers.status("closed", code). A handshake refused
  // before it opened reaches a browser as 1006 without the server's code, so
  // after such a close handlers.probe(), if given, asks over HTTP and answers
  // 4401, 4404 or null (try again).
  function connect(path, handlers) {
    let ws = null;
    let delay = 500;
    let timer = null;
    let closedByUs = false;
    const status = (...args) => { if (handlers.status) handlers.status(...args); };
    function retry() {
      status("offline");
      timer = setTimeout(connect, delay);
      // A restarting server is back within seconds: keep the retries short.
      delay = Math.min(delay * 2, 4000);
    }
    function giveUp(code) {
      closedByUs = true;
      clearTimeout(timer);
      status("closed", code);
    }
    function connect() {
      timer = null;
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      ws = new WebSocket(`${scheme}://${location.host}${path}`);
      let opened = false;
      // Channel layers forget group members after a day: a tab left open
      // longer reconnects (and gets a fresh snapshot) every few hours.
      const socketAtOpen = ws;
      setTimeout(() => { if (ws === socketAtOpen && ws.readyState === 1) ws.close(4000, "refresh"); }, 6 * 3600 * 1000);
      ws.onopen = () => { opened = true; delay = 500; status("live"); };
      ws.onmessage = (event) => {
        const message = JSON.parse(event.data);
        const handler = handlers[message.type] || handlers.other;
        if (handler) handler(message);
      };
      ws.onclose = (event) => {
        if (closedByUs) return;
        if (GIVE_UP.has(event.code)) { giveUp(event.code); return; }
        if (opened || !handlers.probe) { retry(); return; }
        // Refused before it opened: a server that is down, or one that said no.
        Promise.resolve().then(handlers.probe).catch(() => null).then((code) => {
          if (closedByUs) return;
          if (GIVE_UP.has(code)) giveUp(code); else retry();
        });
      };
    }
    function reconnectNow() {
      // Back online or back to the tab: do not sit out the rest of a backoff.
      if (closedByUs || !timer) return;
      clearTimeout(timer);
      delay = 500;
      connect();
    }
    window.addEventListener("online", reconnectNow);
    document.addEventListener("visibilitychange", () => { if (!document.hidden) reconnectNow(); });
    connect();
    return {
      refresh() { if (ws && ws.readyState === 1) ws.send(JSON.stringify({ type: "refresh" })); },
      close() { closedByUs = true; clearTimeout(timer); if (ws) ws.close(); },
    };
  }

  // A room's socket. Where the socket cannot say why it was refused, the
  // room's REST answer can: 404 the room is gone, 401/403 not logged in.
  function socket(roomId, handlers) {
    async function probe() {
      const response = await fetch(`/api/rooms/${roomId}/`, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (response.status === 404) return 4404;
      if (response.status === 401 || response.status === 403) return 4401;
      return null;
    }
    return connect(`/ws/rooms/${roomId}/`, { probe, ...handlers });
  }

  function showError(node, error) {
    if (!node) return;
    if (!error) { node.hidden = true; node.textContent = ""; return; }
    node.hidden = false;
    node.textContent = error.detail || error.message || String(error);
  }

  // The games' own words in the page's language: ``value`` is {"text", "args"}
  // as the server sends them (a move in words, a result's reason), the text an
  // English template with %(name)s placeholders and each argument a value or
  // words of its own. Without words (an older payload), the plain ``fallback``.
  function words(value, fallback) {
    if (!value || typeof value.text !== "string") return fallback === undefined || fallback === null ? "" : String(fallback);
    const args = {};
    for (const [name, arg] of Object.entries(value.args || {})) {
      args[name] = arg && typeof arg === "object" && typeof arg.text === "string" ? words(arg) : arg;
    }
    return formatted(gettext(value.text), args);
  }

  // Python's %-formatting of named placeholders, the way the server fills the
  // same templates: %(name)s, %(name)d, and %% for a percent sign.
  function formatted(template, args) {
    return template.replace(/%(?:\(([^)]*)\))?([sdr%])/g, (whole, name, kind) => {
      if (kind === "%") return "%";
      return name !== undefined && Object.hasOwn(args, name) ? String(args[name]) : whole;
    });
  }

  // A translated sentence with elements in it: sentence(gettext("Share the code
  // %(code)s."), {code: el("b", {}, "K7QX2M")}) -> ["Share the code ", <b>, "."],
  // for el() or replaceChildren(). A value may be a node or text.
  function sentence(template, parts) {
    return template.split(/(%\([^)]*\)s)/).map((piece) => {
      const found = /^%\(([^)]*)\)s$/.exec(piece);
      return found && Object.hasOwn(parts, found[1]) ? parts[found[1]] : piece;
    }).filter((piece) => piece !== "");
  }

  // The page's language ("en", "ko"), for numbers and dates.
  const language = document.documentElement.lang || "en";

  // An AI level's name as players read it ("easy", "perfect"): its words from
  // the games' catalogue where the game has them, else the name as it is.
  function levelName(level) {
    return level ? pgettext("AI level", String(level)) : "";
  }

  // What to call a seat's occupant: the display name when the payload has one.
  function playerName(p) {
    if (p.username) return p.name || p.username;
    if (p.bot) return interpolate(gettext("AI (%(level)s)"), { level: levelName(p.bot) }, true);
    return gettext("empty seat");
  }

  // Why a seat's person no longer plays it, or null: "abandoned" (gone away:
  // turns ran out or the others claimed) or "resigned". In a game of three
  // or more an AI then plays the seat on (p.bot); in a two-seat game the
  // match ended, and its result names the seat.
  function seatLeft(p, match) {
    const result = (match && match.result) || {};
    if (p.abandoned || result.abandoned === p.seat) return "abandoned";
    if (p.resigned || result.resigned === p.seat) return "resigned";
    return null;
  }

  // The words for seatLeft, as a tag to put beside the seat's name (null if it still plays).
  function seatNote(p, match) {
    const left = seatLeft(p, match);
    if (!left) return null;
    let text;
    if (left === "abandoned") text = p.bot ? gettext("left the game; the computer plays on") : gettext("left the game");
    else text = p.bot ? gettext("resigned; the computer plays on") : gettext("resigned");
    return el("span", { class: `seat-note seat-${left}`, dataset: { left } }, text);
  }

  // A move not made by its player's own hand, marked in move lists.
  const MADE_BY = {
    bot: [gettext("AI"), gettext("made by the computer")],
    timeout: [gettext("time out"), gettext("the time ran out: a random legal move was made")],
    solver: [gettext("solver"), gettext("played from the solver's solution")],
  };
  function madeByTag(move) {
    const found = MADE_BY[move.made_by];
    return found ? el("span", { class: `made-by made-by-${move.made_by}`, title: found[1] }, found[0]) : null;
  }

  function playerUrl(username) {
    return `/players/${encodeURIComponent(username)}/`;
  }

  // A seat's occupant as shown in lists: a person's name links to their page,
  // followed by their rating where the payload has one: "alice (1512)".
  function playerLabel(p) {
    if (!p.username) return el("span", { class: "player" }, playerName(p));
    return el("span", { class: "player" },
      el("a", { href: playerUrl(p.username), title: p.name && p.name !== p.username ? p.username : null }, playerName(p)),
      typeof p.rating === "number" ? el("span", { class: "rating", dataset: { rating: p.rating } }, ` (${p.rating})`) : null);
  }

  // A rating change as players read it: "+12", "−12" (a minus sign, not a hyphen), "±0".
  function signed(change) {
    const points = Math.round(change);
    if (points > 0) return `+${points}`;
    if (points < 0) return `\u2212${-points}`;
    return "\u00b10";
  }

  // The rating changes of a finished rated match: one line a player, "alice 1500 → 1662 (+162)".
  function ratingChanges(match) {
    const changes = match && match.result && match.result.ratings;
    if (!changes || !changes.length) return null;
    const bySeat = new Map(match.players.map((p) => [p.seat, p]));
    return el("ul", { class: "rating-changes", "aria-label": gettext("Rating changes") }, changes.map((c) => {
      const player = bySeat.get(c.seat) || { username: c.username };
      const direction = c.change > 0 ? "up" : c.change < 0 ? "down" : "same";
      return el("li", { dataset: { seat: c.seat, username: c.username || "", change: Math.round(c.change) } },
        el("a", { href: playerUrl(c.username) }, playerName(player)), " ",
        `${c.before} \u2192 ${c.after}${c.provisional ? "?" : ""} `,
        el("span", { class: `change change-${direction}` }, signed(c.change)));
    }));
  }

  // "win", "loss" or "draw" for username in a finished match; null for a spectator or no result.
  function outcomeFor(match, username) {
    if (!match || !match.result) return null;
    const results = match.result.results || [];
    const mine = match.players.find((p) => p.username && p.username === username);
    if (!mine) return null;
    return { win: "win", loss: "loss", draw: "draw" }[results[mine.seat]] || null;
  }

  // Names as a sentence lists them: "alice", "alice and bob", "alice, bob and carol".
  function listed(names) {
    if (names.length < 2) return names.join("");
    return interpolate(gettext("%(names)s and %(last)s"), { names: names.slice(0, -1).join(gettext(", ")), last: names.at(-1) }, true);
  }

  // A finished match's result, and why it ended (the games' words, in the page's language).
  function resultText(match, username) {
    if (!match || !match.result) return "";
    const reason = words(match.result.reason_words, match.result.reason);
    const because = (headline) => (reason ? interpolate(gettext("%(headline)s — %(reason)s"), { headline, reason }, true) : headline);
    // An aborted match has no winner and no ratings: say so, and why.
    if (match.status === "aborted") return because(gettext("Aborted"));
    const results = match.result.results || [];
    // A puzzle played alone (Sokoban) is solved or left, with the solver's help or not.
    if (match.players.length === 1) {
      if (results[0] !== "win") return gettext("Left unsolved");
      return match.result.solver ? gettext("Solved with the solver (not counted as your own solve)") : gettext("Solved!");
    }
    const winners = match.players.filter((p) => results[p.seat] === "win");
    let headline;
    if (winners.length === 0) headline = gettext("Draw");
    else if (winners.length === match.players.length && winners.length > 1) headline = gettext("Draw");
    else if (winners.some((p) => p.username === username)) headline = winners.length > 1 ? gettext("You share the win") : gettext("You won");
    else headline = interpolate(gettext("%(names)s won"), { names: listed(winners.map(playerName)) }, true);
    return because(headline);
  }

  // The language switch of the top bar (and the settings page): a logged-in
  // player's choice is saved as their preference first, so it follows them to
  // any browser and wins over this one's; then the switch's form goes to
  // Django's set_language, which remembers it in this browser, logged in or
  // not, and brings the page back in that language.
  async function setLanguage(code) {
    const form = document.getElementById("language-switch");
    if (document.body.dataset.username) {
      try {
        await api("PATCH", "/api/auth/me/", { preferences: { language: code } });
      } catch (error) {
        // The browser's cookie still switches this browser.
      }
    }
    if (!form) { location.reload(); return; }
    form.elements.language.value = code;
    form.submit();
  }
  const languageSwitch = document.getElementById("language-switch");
  if (languageSwitch) {
    languageSwitch.elements.language.addEventListener("change", (event) => setLanguage(event.target.value));
  }

  return {
    api, el, svg, connect, socket, showError, resultText, outcomeFor, playerName, playerLabel, playerUrl,
    seatLeft, seatNote, madeByTag, signed, ratingChanges, ApiError, boards: {}, username: document.body.dataset.username,
    words, formatted, sentence, listed, levelName, language, setLanguage,
  };
})();
