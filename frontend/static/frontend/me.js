// The player's own socket (/ws/me/), open on every page of the site, and quick
// pairing: the waiting panel under the top bar, Cancel, and the move into the
// room the moment a seek is paired, wherever the player is on the site.
//
//   App.seeks.seek(game, players)   POST /api/seeks/; paired at once: off to the room
//   App.seeks.cancel(id)            DELETE; already paired: off to the room
//   App.seeks.waiting()             the waiting seeks, as the server last told us
//   App.seeks.onChange(fn)          called after every change of that list
//   App.catalogue()                 GET /api/games/, asked once per page
"use strict";

(() => {
  let catalogue = null;
  // The catalogue speaks English (one answer serves every language); its
  // names and descriptions are the games' words, said in the page's language
  // from the games' catalogue (/jsi18n/games/). Slugs and level names stay as they are.
  const said = (game) => ({
    ...game,
    name: gettext(game.name),
    ai_levels: (game.ai_levels || []).map((level) => ({ ...level, description: gettext(level.description) })),
  });
  App.catalogue = () => {
    if (!catalogue) {
      catalogue = App.api("GET", "/api/games/").then((games) => games.map(said))
        .catch((error) => { catalogue = null; throw error; });
    }
    return catalogue;
  };
})();

App.seeks = (() => {
  const $ = (id) => document.getElementById(id);
  // After this long without a partner the panel offers a game against the computer.
  const OFFER_COMPUTER_AFTER_S = 30;
  // A seek this browser was waiting on, paired while no page of the site had
  // its socket open (between two pages, say), still leads to its room when the
  // pairing is this recent.
  const FOLLOW_PAIRED_WITHIN_S = 600;
  const REMEMBERED = "boardgames.seeks";

  const waiting = new Map(); // id -> {seek, since: performance.now() when `waited` was measured}
  const listeners = [];
  let leaving = false;

  function remembered() {
    try { return JSON.parse(localStorage.getItem(REMEMBERED) || "[]").filter(Number.isInteger); } catch (e) { return []; }
  }
  function remember(ids) {
    try { localStorage.setItem(REMEMBERED, JSON.stringify([...new Set(ids)])); } catch (e) { /* private mode */ }
  }
  function forget(id) { remember(remembered().filter((known) => known !== id)); }

  function goToRoom(room) {
    if (!room) return;
    const target = `/rooms/${room}/`;
    if (location.pathname === target || leaving) return;
    leaving = true;
    location.assign(target);
  }

  function changed() {
    render();
    for (const listener of listeners) listener([...waiting.values()].map((w) => w.seek));
  }

  function take(seek) {
    if (seek.status === "waiting") {
      waiting.set(seek.id, { seek, since: performance.now() });
      remember([...remembered(), seek.id]);
    } else {
      waiting.delete(seek.id);
      forget(seek.id);
      if (seek.status === "paired") goToRoom(seek.room);
      else if (seek.reason === "expired") notice(gettext("Your search for a game expired: no page of the site was open."));
    }
    changed();
  }

  // What the socket says first: the seeks still waiting, and those paired a
  // moment ago. A remembered one that is no longer waiting was ended while no
  // page had its socket open (between two pages, say): if it was paired just
  // now, its game is waiting. Only seeks this browser was waiting on lead
  // anywhere: a pairing already followed is forgotten.
  async function greeted(seeks) {
    const before = remembered();
    waiting.clear();
    for (const seek of seeks) {
      if (seek.status === "waiting") waiting.set(seek.id, { seek, since: performance.now() });
    }
    remember([...waiting.keys()]);
    changed();
    for (const seek of seeks) {
      if (seek.status === "paired" && before.includes(seek.id)) goToRoom(seek.room);
    }
    for (const id of before) {
      if (waiting.has(id) || seeks.some((s) => s.id === id)) continue;
      let seek;
      try { seek = await App.api("GET", `/api/seeks/${id}/`); } catch (error) { continue; }
      const endedAgo = (Date.now() - Date.parse(seek.created_at)) / 1000 - seek.waited;
      if (seek.status === "paired" && endedAgo < FOLLOW_PAIRED_WITHIN_S) goToRoom(seek.room);
    }
  }

  async function seek(game, players) {
    const body = { game };
    if (players) body.players = players;
    const created = await App.api("POST", "/api/seeks/", body);
    take(created);
    return created;
  }

  async function cancel(id) {
    try {
      await App.api("DELETE", `/api/seeks/${id}/`);
      waiting.delete(id);
      forget(id);
      changed();
    } catch (error) {
      // Paired just before the cancel arrived: the game is there, go and play it.
      if (error.code === "already_paired") { waiting.delete(id); forget(id); goToRoom(error.data.room); return; }
      if (error.status === 404) { waiting.delete(id); forget(id); changed(); return; }
      throw error;
    }
  }

  // Nobody came: stop waiting and start a game against the computer (the room's default level).
  async function playComputerInstead(entry) {
    await cancel(entry.seek.id);
    if (leaving) return;
    const room = await App.api("POST", "/api/rooms/", { game: entry.seek.game, options: { players: entry.seek.players } });
    await App.api("POST", `/api/rooms/${room.id}/start/`);
    goToRoom(room.id);
  }

  function waitedSeconds(entry) {
    return Math.floor(entry.seek.waited + (performance.now() - entry.since) / 1000);
  }

  function clock(seconds) {
    return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  }

  let names = {};
  App.catalogue().then((games) => {
    names = Object.fromEntries(games.map((g) => [g.slug, { name: g.name, several: g.player_counts.length > 1 }]));
    render();
  }).catch(() => {});

  function what(seek) {
    const game = names[seek.game];
    const name = game ? game.name : seek.game;
    return game && game.several ? interpolate(gettext("%(game)s, %(count)s players"), { game: name, count: seek.players }, true) : name;
  }

  function notice(text) {
    const panel = $("seek-panel");
    if (!panel) return;
    panel.hidden = false;
    panel.replaceChildren(App.el("p", { class: "seek-notice" }, text,
      App.el("button", { type: "button", class: "link", onclick: () => { panel.hidden = true; } }, gettext("OK"))));
  }

  function render() {
    const panel = $("seek-panel");
    if (!panel) return;
    if (!waiting.size) {
      if (!panel.querySelector(".seek-notice")) { panel.hidden = true; panel.replaceChildren(); }
      return;
    }
    panel.hidden = false;
    panel.replaceChildren(...[...waiting.values()].map((entry) => {
      const error = App.el("span", { class: "error", role: "alert", hidden: true });
      const fail = (failure) => App.showError(error, failure);
      const seconds = waitedSeconds(entry);
      return App.el("div", { class: "seek", dataset: { seek: entry.seek.id, game: entry.seek.game, pool: entry.seek.pool } },
        App.el("span", { class: "seek-spinner", "aria-hidden": "true" }),
        App.el("span", { class: "seek-what" },
          entry.seek.players > 2 ? gettext("Looking for players: ") : gettext("Looking for an opponent: "), App.el("b", {}, what(entry.seek)),
          entry.seek.rated ? gettext(" (rated)") : ""),
        App.el("span", { class: "seek-clock", title: gettext("time waited"), dataset: { seconds } }, clock(seconds)),
        App.el("button", { type: "button", class: "secondary", onclick: (event) => {
          event.currentTarget.disabled = true;
          cancel(entry.seek.id).catch(fail);
        } }, gettext("Cancel")),
        seconds >= OFFER_COMPUTER_AFTER_S
          ? App.el("button", { type: "button", class: "secondary", onclick: (event) => {
            event.currentTarget.disabled = true;
            playComputerInstead(entry).catch(fail);
          } }, gettext("Play the computer instead"))
          : null,
        error);
    }));
  }

  // The clocks tick without redrawing the buttons under the pointer, except
  // the once a seek's wait passes the point where the computer is offered.
  setInterval(() => {
    for (const entry of waiting.values()) {
      const node = document.querySelector(`#seek-panel [data-seek="${entry.seek.id}"] .seek-clock`);
      if (!node) continue;
      const seconds = waitedSeconds(entry);
      const before = Number(node.dataset.seconds);
      node.dataset.seconds = seconds;
      node.textContent = clock(seconds);
      if (before < OFFER_COMPUTER_AFTER_S && seconds >= OFFER_COMPUTER_AFTER_S) render();
    }
  }, 1000);

  if (App.username) {
    App.connect("/ws/me/", {
      // Logged out meanwhile (in another tab): stop instead of retrying forever.
      async probe() {
        const response = await fetch("/api/auth/me/", { headers: { Accept: "application/json" }, credentials: "same-origin" });
        return response.status === 401 || response.status === 403 ? 4401 : null;
      },
      seeks(message) { greeted(message.seeks).catch(() => {}); },
      seek(message) { take(message.seek); },
      paired(message) {
        waiting.delete(message.seek);
        forget(message.seek);
        changed();
        goToRoom(message.room);
      },
    });
  }

  return {
    seek,
    cancel,
    waiting: () => [...waiting.values()].map((w) => w.seek),
    onChange(listener) { listeners.push(listener); },
  };
})();
