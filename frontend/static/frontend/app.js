// Shared helpers for every page: the API client, the room socket, DOM building.
// No game rules live here or anywhere in JS: boards ask the server for legal moves.
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
      throw new ApiError(0, "network", "Cannot reach the server. Check your connection and try again.");
    }
    if (response.status === 204) return null;
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (!response.ok) {
      const code = data && data.code ? data.code : "error";
      const detail = data && data.detail ? data.detail : `request failed (${response.status})`;
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

  // A socket that reconnects with backoff; every (re)connect gets a fresh snapshot
  // (a room's state, or the player's waiting seeks on /ws/me/).
  function connect(path, handlers) {
    let ws = null;
    let delay = 500;
    let timer = null;
    let closedByUs = false;
    function connect() {
      timer = null;
      const scheme = location.protocol === "https:" ? "wss" : "ws";
      ws = new WebSocket(`${scheme}://${location.host}${path}`);
      // Channel layers forget group members after a day: a tab left open
      // longer reconnects (and gets a fresh snapshot) every few hours.
      const socketAtOpen = ws;
      setTimeout(() => { if (ws === socketAtOpen && ws.readyState === 1) ws.close(4000, "refresh"); }, 6 * 3600 * 1000);
      ws.onopen = () => { delay = 500; handlers.status && handlers.status("live"); };
      ws.onmessage = (event) => {
        const message = JSON.parse(event.data);
        const handler = handlers[message.type] || handlers.other;
        if (handler) handler(message);
      };
      ws.onclose = (event) => {
        if (closedByUs) return;
        // 4401/4404: logged out or no such room; retrying cannot help.
        if (event.code === 4401 || event.code === 4404) {
          handlers.status && handlers.status("closed", event.code);
          return;
        }
        handlers.status && handlers.status("offline");
        timer = setTimeout(connect, delay);
        // A restarting server is back within seconds: keep the retries short.
        delay = Math.min(delay * 2, 4000);
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

  function socket(roomId, handlers) {
    return connect(`/ws/rooms/${roomId}/`, handlers);
  }

  function showError(node, error) {
    if (!node) return;
    if (!error) { node.hidden = true; node.textContent = ""; return; }
    node.hidden = false;
    node.textContent = error.detail || error.message || String(error);
  }

  // What to call a seat's occupant: the display name when the payload has one.
  function playerName(p) {
    if (p.username) return p.name || p.username;
    if (p.bot) return `AI (${p.bot})`;
    return "empty seat";
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
    return el("ul", { class: "rating-changes", "aria-label": "Rating changes" }, changes.map((c) => {
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

  function resultText(match, username) {
    if (!match || !match.result) return "";
    // An aborted match has no winner and no ratings: say so, and why.
    if (match.status === "aborted") return match.result.reason ? `Aborted — ${match.result.reason}` : "Aborted";
    const results = match.result.results || [];
    const winners = match.players.filter((p) => results[p.seat] === "win");
    let headline;
    if (winners.length === 0) headline = "Draw";
    else if (winners.length === match.players.length && winners.length > 1) headline = "Draw";
    else if (winners.some((p) => p.username === username)) headline = winners.length > 1 ? "You share the win" : "You won";
    else headline = `${winners.map(playerName).join(" and ")} won`;
    return match.result.reason ? `${headline} — ${match.result.reason}` : headline;
  }

  return {
    api, el, svg, connect, socket, showError, resultText, outcomeFor, playerName, playerLabel, playerUrl,
    signed, ratingChanges, ApiError, boards: {}, username: document.body.dataset.username,
  };
})();
