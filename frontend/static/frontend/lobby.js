// The lobby: a card per game of the catalogue (GET /api/games/) with the same
// actions for every game (quick pairing, play the computer, create a room,
// join one), then the open rooms and my games. Nothing here names a game:
// seat counts, options and their defaults, AI levels and rating pools all
// come from the server.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const el = App.el;
  const me = App.username;
  // Every rating pool: {pool, game, players, label} (a game at one seat count).
  const pools = JSON.parse($("pools").textContent);
  // slug -> URL of the board's small picture, "" where the game has none.
  const pictures = JSON.parse($("pictures").textContent);
  const TURN_TIMES = [
    [0, gettext("no limit")], [30, gettext("30 seconds")], [60, gettext("1 minute")], [120, gettext("2 minutes")],
    [300, gettext("5 minutes")], [86400, gettext("1 day")],
  ];

  let games = [];
  let preferences = {};
  let profile = null; // my ratings, from GET /api/players/<me>/
  const cards = new Map(); // slug -> the card's parts that change

  const gameName = (slug) => (games.find((g) => g.slug === slug) || { name: slug }).name;
  const poolOf = (game, players) => pools.find((p) => p.game === game && p.players === players) || null;
  const optionOf = (game, name) => game.options.find((o) => o.name === name) || null;
  const capitalised = (word) => word[0].toUpperCase() + word.slice(1);
  const secondsText = (n) => interpolate(ngettext("%(count)s second", "%(count)s seconds", n), { count: n }, true);

  function duration(seconds) {
    const known = TURN_TIMES.find(([s]) => s === seconds);
    return known ? known[1] : secondsText(seconds);
  }

  async function busy(button, work) {
    button.disabled = true;
    try { await work(); } finally { button.disabled = false; }
  }

  function choice(name, choices, value) {
    const select = el("select", { name }, choices.map(([v, label, title]) => el("option", { value: v, title }, label)));
    select.value = String(value);
    return select;
  }

  function playersText(counts) {
    if (counts.length === 1) return interpolate(ngettext("%(count)s player", "%(count)s players", counts[0]), { count: counts[0] }, true);
    return interpolate(gettext("%(counts)s or %(last)s players"), { counts: counts.slice(0, -1).join(gettext(", ")), last: counts.at(-1) }, true);
  }

  // "the game's default" is what the server uses when no time is sent: the
  // game's own, or for games timed by default the player's saved default.
  function turnChoice(game) {
    const spec = optionOf(game, "turn_seconds");
    const own = spec ? spec.default : 0;
    const preferred = preferences.default_turn_seconds;
    let label = gettext("no limit (the game's default)");
    if (own > 0 && typeof preferred === "number") label = interpolate(gettext("your default (%(time)s)"), { time: duration(preferred) }, true);
    else if (own > 0) label = interpolate(gettext("the game's default (%(time)s)"), { time: duration(own) }, true);
    return choice("turn_seconds", [["", label], ...TURN_TIMES], "");
  }

  function aiChoice(game) {
    const spec = optionOf(game, "ai");
    const levels = game.ai_levels;
    const preferred = spec && levels.some((l) => l.name === spec.default) ? spec.default : levels[0].name;
    const label = (l) => interpolate(gettext("%(level)s: %(description)s"), { level: capitalised(App.levelName(l.name)), description: l.description }, true);
    return choice("ai", levels.map((l) => [l.name, label(l), l.description]), preferred);
  }

  function field(text, control, attrs) {
    return el("label", attrs || {}, text, " ", control);
  }

  // The room options a form asks for; the server fills in the rest.
  function roomOptions(game, form) {
    const options = {};
    if (form.players && game.player_counts.length > 1) options.players = Number(form.players.value);
    if (form.ai) options.ai = form.ai.value;
    if (form.turn_seconds && form.turn_seconds.value !== "") options.turn_seconds = Number(form.turn_seconds.value);
    return options;
  }

  function go(room) { location.href = `/rooms/${room}/`; }

  // --- a card ----------------------------------------------------------------

  function picture(game) {
    if (pictures[game.slug]) return el("img", { class: "game-picture", src: pictures[game.slug], alt: "", width: 96, height: 96 });
    // A game without a picture of its own gets its initial on a plain board.
    return el("div", { class: "game-picture plain", "aria-hidden": "true" }, game.name[0]);
  }

  function errorLine() {
    return el("p", { class: "error", role: "alert", hidden: true });
  }

  function quickPlay(game) {
    const counts = game.player_counts.filter((n) => poolOf(game.slug, n));
    if (!counts.length) return null;
    const players = choice("players", counts.map((n) => [n, n]), counts[0]);
    const button = el("button", { type: "submit", class: "play" }, gettext("Play"));
    const error = errorLine();
    const form = el("form", { class: "quick-play" },
      el("div", { class: "row" },
        field(gettext("Players"), players, { hidden: counts.length < 2 }),
        button),
      el("p", { class: "muted hint" }, gettext("Quick pairing: a rated game against someone near your rating.")),
      error);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      App.showError(error, null);
      busy(button, async () => {
        try { await App.seeks.seek(game.slug, Number(players.value)); } catch (failure) { App.showError(error, failure); }
      }).then(showSeeking);
    });
    players.addEventListener("change", showSeeking);
    return form;
  }

  // A game played alone starts the moment its room is made.
  function soloPlay(game) {
    const button = el("button", { type: "submit", class: "play" }, gettext("Play"));
    const error = errorLine();
    const form = el("form", { class: "solo-play" }, button,
      el("p", { class: "muted hint" }, gettext("A game of your own, started at once.")), error);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      App.showError(error, null);
      busy(button, async () => {
        try { go((await App.api("POST", "/api/rooms/", { game: game.slug })).id); } catch (failure) { App.showError(error, failure); }
      });
    });
    return form;
  }

  function action(kind, summary, ...content) {
    return el("details", { class: `action ${kind}` }, el("summary", {}, summary), ...content);
  }

  function playComputer(game) {
    const counts = game.player_counts.filter((n) => n > 1);
    const players = choice("players", counts.map((n) => [n, n]), counts[0]);
    const button = el("button", { type: "submit" }, gettext("Start the game"));
    const error = errorLine();
    const form = el("form", { class: "stack play-computer" },
      field(gettext("Players"), players, { hidden: counts.length < 2 }),
      field(gettext("Computer level"), aiChoice(game)),
      field(gettext("Time per turn"), turnChoice(game)),
      el("p", { class: "muted hint" }, gettext("You take the first seat; the computer takes the others.")),
      button, error);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      App.showError(error, null);
      busy(button, async () => {
        let room = null;
        try {
          room = await App.api("POST", "/api/rooms/", { game: game.slug, options: roomOptions(game, form) });
          // Started at once, so every free seat becomes an AI seat.
          await App.api("POST", `/api/rooms/${room.id}/start/`);
          go(room.id);
        } catch (failure) {
          App.showError(error, failure);
          if (room) error.append(" ", el("a", { href: `/rooms/${room.id}/` }, gettext("Open the room")));
        }
      });
    });
    return action("computer", gettext("Play the computer"), form);
  }

  function createRoom(game) {
    const counts = game.player_counts;
    const players = choice("players", counts.map((n) => [n, n]), counts[0]);
    const rated = el("input", { type: "checkbox", name: "rated" });
    const ratedLabel = el("label", { class: "check", title: gettext("Only while every seat is a person: a room started with AI seats is not rated") },
      rated, " ", gettext("Rated"));
    const button = el("button", { type: "submit" }, gettext("Create room"));
    const error = errorLine();
    const form = el("form", { class: "stack create-room" },
      field(gettext("Players"), players, { hidden: counts.length < 2 }),
      field(gettext("Computer level"), aiChoice(game), { title: gettext("Who takes the seats nobody took when you start the room") }),
      field(gettext("Time per turn"), turnChoice(game), { title: gettext("When a player's time runs out, a random legal move is made for them") }),
      ratedLabel,
      el("p", { class: "muted hint" }, gettext("Share the room's code; start when you are ready and the computer takes the free seats.")),
      button, error);
    // Rated only where the game at that seat count has a rating pool.
    const syncRated = () => {
      ratedLabel.hidden = !poolOf(game.slug, Number(players.value));
      if (ratedLabel.hidden) rated.checked = false;
    };
    players.addEventListener("change", syncRated);
    syncRated();
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      App.showError(error, null);
      const body = { game: game.slug, options: roomOptions(game, form) };
      if (rated.checked) body.rated = true;
      busy(button, async () => {
        try { go((await App.api("POST", "/api/rooms/", body)).id); } catch (failure) { App.showError(error, failure); }
      });
    });
    return action("create", gettext("Create a room"), form);
  }

  function joinRoom(game) {
    const rooms = el("ul", { class: "list open-rooms", "aria-label": interpolate(gettext("Open %(game)s rooms"), { game: game.name }, true) }, el("li", { class: "muted" }, gettext("Loading…")));
    const code = el("input", { name: "code", maxlength: 8, placeholder: gettext("e.g. K7QX2M"), autocomplete: "off", spellcheck: "false", class: "code" });
    const button = el("button", { type: "submit" }, gettext("Find room"));
    const error = errorLine();
    const form = el("form", { class: "stack join-code" }, field(gettext("Join by room code"), code), button, error);
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      App.showError(error, null);
      const wanted = code.value.trim().toUpperCase();
      if (!wanted) { App.showError(error, new Error(gettext("Type the code the host gave you."))); return; }
      busy(button, async () => {
        try {
          const found = (await App.api("GET", `/api/rooms/?code=${encodeURIComponent(wanted)}`)).results;
          // A room that has started can still be watched; a closed one is gone.
          const room = found.find((r) => r.status === "open") || found.find((r) => r.status === "playing");
          if (room) go(room.id);
          else if (found.length) App.showError(error, new Error(interpolate(gettext("The room with the code %(code)s is closed."), { code: wanted }, true)));
          else App.showError(error, new Error(interpolate(gettext("No open room has the code %(code)s."), { code: wanted }, true)));
        } catch (failure) {
          App.showError(error, failure);
        }
      });
    });
    return { details: action("join", gettext("Join a room"), rooms, form), rooms };
  }

  function card(game) {
    const solo = game.max_players < 2;
    const ratings = el("p", { class: "game-ratings" });
    const join = joinRoom(game);
    const node = el("article", { class: "card game-card", dataset: { game: game.slug }, "aria-labelledby": `game-${game.slug}` },
      el("div", { class: "game-head" },
        picture(game),
        el("div", { class: "game-about" },
          el("h2", { id: `game-${game.slug}` }, game.name),
          el("p", { class: "muted game-players" }, playersText(game.player_counts)),
          ratings,
          el("a", { class: "rules-link", href: `/games/${game.slug}/rules/` }, gettext("How to play")))),
      solo ? soloPlay(game) : quickPlay(game),
      !solo && game.ai_levels.length ? playComputer(game) : null,
      solo ? null : createRoom(game),
      join.details);
    // One action open at a time: the card stays short.
    node.addEventListener("toggle", (event) => {
      if (!event.target.open) return;
      for (const other of node.querySelectorAll("details[open]")) if (other !== event.target) other.open = false;
    }, true);
    cards.set(game.slug, { node, ratings, rooms: join.rooms });
    return node;
  }

  function showRatings() {
    if (!profile) return;
    for (const [slug, parts] of cards) {
      const mine = pools.filter((p) => p.game === slug);
      parts.ratings.replaceChildren(...mine.map((p) => {
        const r = profile.ratings[p.pool];
        if (!r) return null;
        const several = mine.length > 1;
        return el("span", { class: "my-rating", dataset: { pool: p.pool }, title: interpolate(ngettext("%(count)s rated game", "%(count)s rated games", r.games), { count: r.games }, true) },
          several ? interpolate(gettext("%(count)s players: "), { count: p.players }, true) : gettext("Your rating: "),
          el("b", {}, `${r.rating}${r.provisional ? "?" : ""}`));
      }));
    }
  }

  // The Play button of a pool already being sought says so (the panel above has Cancel).
  function showSeeking() {
    const seeking = App.seeks.waiting();
    for (const [slug, parts] of cards) {
      const form = parts.node.querySelector(".quick-play");
      if (!form) continue;
      const players = Number(form.players.value);
      const waiting = seeking.some((s) => s.game === slug && s.players === players);
      const button = form.querySelector("button.play");
      button.disabled = waiting;
      button.textContent = !waiting ? gettext("Play") : players > 2 ? gettext("Looking for players…") : gettext("Looking for an opponent…");
    }
  }

  // --- rooms and my games ------------------------------------------------------

  // Every page of a list, following the API's "next" links.
  async function loadAll(url) {
    const items = [];
    for (let next = url; next;) {
      const page = await App.api("GET", next);
      items.push(...page.results);
      next = page.next;
    }
    return items;
  }

  function fill(list, items, render, empty) {
    list.replaceChildren(...(items.length ? items.map(render) : [el("li", { class: "muted" }, empty)]));
  }

  function enterRoom(room, button) {
    App.showError($("rooms-error"), null);
    busy(button, async () => {
      try {
        await App.api("POST", `/api/rooms/${room.id}/join/`);
        go(room.id);
      } catch (error) {
        App.showError($("rooms-error"), error);
        refresh().catch(() => {});
      }
    });
  }

  function between(players) {
    const nodes = [];
    players.forEach((p, i) => { if (i) nodes.push(gettext(" vs ")); nodes.push(App.playerLabel(p)); });
    return nodes;
  }

  function openRoom(r) {
    const seated = r.seats.filter((s) => s.username || s.bot);
    const mine = r.seats.some((s) => s.username === me);
    const action = mine
      ? el("a", { class: "button", href: `/rooms/${r.id}/` }, gettext("Open"))
      : el("button", { type: "button", onclick: (event) => enterRoom(r, event.currentTarget) }, gettext("Join"));
    return el("li", { dataset: { room: r.id, rated: r.options && r.options.rated ? "yes" : "no" }, class: "entry" },
      el("span", {},
        el("a", { href: `/rooms/${r.id}/` }, interpolate(gettext("%(game)s #%(room)s"), { game: gameName(r.game), room: r.id }, true)),
        r.options && r.options.rated ? el("span", { class: "pill rated", title: gettext("The result changes the players' ratings") }, gettext("rated")) : null,
        el("span", { class: "muted" }, interpolate(gettext(" — %(seated)s/%(seats)s seated: "), { seated: seated.length, seats: r.seats.length }, true)),
        between(seated)),
      action);
  }

  function activeMatch(m) {
    return el("li", { dataset: { match: m.id }, class: "entry" },
      el("span", {},
        el("a", { href: `/rooms/${m.room}/`, title: gettext("Back to this game") }, gameName(m.game)),
        m.rated ? el("span", { class: "pill rated" }, gettext("rated")) : null, ": ", between(m.players)));
  }

  function myChange(m) {
    const mine = m.result && m.result.ratings ? m.result.ratings.find((c) => c.username === me) : null;
    return mine ? el("span", { class: `change change-${mine.change > 0 ? "up" : mine.change < 0 ? "down" : "same"}` }, ` ${App.signed(mine.change)}`) : null;
  }

  function finishedMatch(m) {
    return el("li", { dataset: { match: m.id, outcome: App.outcomeFor(m, me) || "" }, class: "entry" },
      el("span", {},
        el("a", { href: `/matches/${m.id}/replay/`, title: gettext("Review this game") }, gameName(m.game)),
        m.rated ? el("span", { class: "pill rated" }, gettext("rated")) : null, ": ", between(m.players),
        el("span", { class: "result" }, App.resultText(m, me), myChange(m))));
  }

  async function refresh() {
    const [open, active, finished] = await Promise.all([
      loadAll("/api/rooms/?status=open"),
      App.api("GET", "/api/matches/?player=me&status=active").then((page) => page.results),
      App.api("GET", "/api/matches/?player=me&status=finished").then((page) => page.results),
    ]);
    fill($("open-rooms"), open, openRoom, gettext("No open rooms. Create one!"));
    for (const [slug, parts] of cards) {
      fill(parts.rooms, open.filter((r) => r.game === slug), openRoom,
        interpolate(gettext("No %(game)s room is waiting for players."), { game: gameName(slug) }, true));
    }
    fill($("my-active"), active, activeMatch, gettext("None."));
    fill($("my-finished"), finished, finishedMatch, gettext("None yet."));
  }

  // --- start -------------------------------------------------------------------

  (async () => {
    const [catalogue, mine] = await Promise.all([
      App.catalogue(),
      App.api("GET", "/api/auth/me/").catch(() => ({})),
    ]);
    games = catalogue;
    preferences = (mine && mine.preferences) || {};
    $("catalogue").replaceChildren(...games.map(card));
    $("catalogue").removeAttribute("aria-busy");
    showSeeking();
    App.seeks.onChange(showSeeking);
    App.api("GET", `/api/players/${encodeURIComponent(me)}/`)
      .then((found) => { profile = found; showRatings(); }).catch(() => {});
    await refresh();
  })().catch((error) => App.showError($("catalogue-error"), error));
  // No room socket in the lobby: poll while it is on screen, and at once when it comes back.
  setInterval(() => { if (!document.hidden && games.length) refresh().catch(() => {}); }, 5000);
  document.addEventListener("visibilitychange", () => { if (!document.hidden && games.length) refresh().catch(() => {}); });
})();
