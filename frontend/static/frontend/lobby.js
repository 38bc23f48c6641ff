// The lobby: create a room, join one, resume my games, review finished ones.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const me = App.username;
  const select = $("game-select");
  const playersInput = $("players-input");
  const gameNames = Object.fromEntries([...select.options].map((o) => [o.value, o.textContent]));
  const gameName = (slug) => gameNames[slug] || slug;

  function syncPlayers() {
    const option = select.selectedOptions[0];
    const min = Number(option.dataset.min);
    const max = Number(option.dataset.max);
    // Only the seat counts the game allows (Quoridor: 2 or 4), from the catalogue.
    const counts = option.dataset.counts.split(",").map(Number);
    const chosen = Number(playersInput.value);
    playersInput.replaceChildren(...counts.map((n) => App.el("option", { value: n }, n)));
    playersInput.value = counts.includes(chosen) ? chosen : min;
    $("players-label").hidden = counts.length < 2;
    // The computer only plays seats in games for more than one.
    const bots = option.dataset.bots ? option.dataset.bots.split(",") : [];
    const aiSelect = $("ai-select");
    const previous = aiSelect.value;
    aiSelect.replaceChildren(...bots.map((level) => App.el("option", { value: level }, level[0].toUpperCase() + level.slice(1))));
    aiSelect.value = bots.includes(previous) ? previous : bots.includes("random") ? "random" : bots[0] || "";
    $("ai-label").hidden = max < 2 || bots.length === 0;
  }
  select.addEventListener("change", syncPlayers);
  syncPlayers();

  async function busy(button, work) {
    button.disabled = true;
    try { await work(); } finally { button.disabled = false; }
  }

  $("create-room").addEventListener("submit", (event) => {
    event.preventDefault();
    App.showError($("create-error"), null);
    const option = select.selectedOptions[0];
    const options = {};
    if (option.dataset.min !== option.dataset.max) options.players = Number(playersInput.value);
    if (!$("ai-label").hidden && $("ai-select").value) options.ai = $("ai-select").value;
    if ($("turn-select").value !== "") options.turn_seconds = Number($("turn-select").value);
    busy(event.submitter || event.target.querySelector("button"), async () => {
      try {
        const room = await App.api("POST", "/api/rooms/", { game: select.value, options });
        location.href = `/rooms/${room.id}/`;
      } catch (error) {
        App.showError($("create-error"), error);
      }
    });
  });

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

  $("join-code").addEventListener("submit", (event) => {
    event.preventDefault();
    App.showError($("code-error"), null);
    const code = event.target.code.value.trim().toUpperCase();
    if (!code) {
      App.showError($("code-error"), new Error("Type the code the host gave you."));
      return;
    }
    busy(event.submitter || event.target.querySelector("button"), async () => {
      try {
        const rooms = (await App.api("GET", `/api/rooms/?code=${encodeURIComponent(code)}`)).results;
        // A room that has started can still be watched; a closed one is gone.
        const room = rooms.find((r) => r.status === "open") || rooms.find((r) => r.status === "playing");
        if (room) location.href = `/rooms/${room.id}/`;
        else if (rooms.length) App.showError($("code-error"), new Error(`The room with the code ${code} is closed.`));
        else App.showError($("code-error"), new Error(`No open room has the code ${code}.`));
      } catch (error) {
        App.showError($("code-error"), error);
      }
    });
  });

  // --- The Manhattan menu ---------------------------------------------------
  const menu = $("manhattan-menu");
  const levels = menu.dataset.bots ? menu.dataset.bots.split(",") : [];
  const LEVEL_NAMES = {
    random: "Random: any legal move",
    greedy: "Greedy: the most points now",
    strong: "Strong: plans ahead",
  };
  const TURN_TIMES = [[30, "30 seconds"], [60, "1 minute"], [120, "2 minutes"], [300, "5 minutes"], [86400, "1 day"], [0, "no limit"]];
  // Manhattan is played against the clock unless the player's settings say otherwise.
  const MANHATTAN_TURN_SECONDS = 60;
  for (const form of [$("mh-solo"), $("mh-room")]) {
    const ai = form.querySelector(".mh-ai");
    ai.replaceChildren(...levels.map((level) => App.el("option", { value: level }, LEVEL_NAMES[level] || level)));
    ai.value = levels.includes("random") ? "random" : levels[0] || "";
    form.querySelector(".mh-turn").replaceChildren(...TURN_TIMES.map(([seconds, label]) => App.el("option", { value: seconds }, label)));
    form.querySelector(".mh-turn").value = String(MANHATTAN_TURN_SECONDS);
  }
  App.api("GET", "/api/auth/me/").then((me) => {
    const seconds = me && me.preferences ? me.preferences.default_turn_seconds : undefined;
    if (typeof seconds !== "number") return;
    for (const select of menu.querySelectorAll(".mh-turn")) {
      if (![...select.options].some((o) => o.value === String(seconds))) {
        select.append(App.el("option", { value: seconds }, `${seconds} seconds`));
      }
      select.value = String(seconds);
    }
  }).catch(() => {});

  function manhattanRoom(form, { startNow }) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const error = form.querySelector(".error");
      App.showError(error, null);
      const options = { ai: form.ai.value, turn_seconds: Number(form.turn_seconds.value) };
      busy(event.submitter || form.querySelector("button"), async () => {
        let room = null;
        try {
          room = await App.api("POST", "/api/rooms/", { game: "manhattan", options });
          // One player: start at once, so the three free seats become AI seats.
          if (startNow) await App.api("POST", `/api/rooms/${room.id}/start/`);
          location.href = `/rooms/${room.id}/`;
        } catch (failure) {
          App.showError(error, failure);
          if (room) error.append(" ", App.el("a", { href: `/rooms/${room.id}/` }, "Open the room"));
        }
      });
    });
  }
  manhattanRoom($("mh-solo"), { startNow: true });
  manhattanRoom($("mh-room"), { startNow: false });

  function players(list) {
    return list.map(App.playerName).join(" vs ");
  }

  function fill(listId, items, render, empty) {
    const list = $(listId);
    list.replaceChildren(...(items.length ? items.map(render) : [App.el("li", { class: "muted" }, empty)]));
  }

  function joinRoom(room, button) {
    App.showError($("rooms-error"), null);
    busy(button, async () => {
      try {
        await App.api("POST", `/api/rooms/${room.id}/join/`);
        location.href = `/rooms/${room.id}/`;
      } catch (error) {
        App.showError($("rooms-error"), error);
        refresh().catch(() => {});
      }
    });
  }

  function openRoom(r) {
    const seated = r.seats.filter((s) => s.username || s.bot).length;
    const mine = r.seats.some((s) => s.username === me);
    const action = mine
      ? App.el("a", { class: "button", href: `/rooms/${r.id}/` }, "Open")
      : App.el("button", { type: "button", onclick: (event) => joinRoom(r, event.currentTarget) }, "Join");
    return App.el("li", { dataset: { room: r.id }, class: "entry" },
      App.el("span", {},
        App.el("a", { href: `/rooms/${r.id}/` }, `${gameName(r.game)} #${r.id}`),
        App.el("span", { class: "muted" }, ` — host ${r.host}, ${seated}/${r.seats.length} seated`)),
      action);
  }

  async function refresh() {
    const [open, active, finished] = await Promise.all([
      loadAll("/api/rooms/?status=open"),
      App.api("GET", "/api/matches/?player=me&status=active").then((page) => page.results),
      App.api("GET", "/api/matches/?player=me&status=finished").then((page) => page.results),
    ]);
    fill("open-rooms", open, openRoom, "No open rooms. Create one!");
    fill("mh-open-rooms", open.filter((r) => r.game === "manhattan"), openRoom, "No Manhattan room is waiting for players.");
    fill("my-active", active, (m) => App.el("li", { dataset: { match: m.id }, class: "entry" },
      App.el("a", { href: `/rooms/${m.room}/` }, `${gameName(m.game)}: ${players(m.players)}`)), "None.");
    fill("my-finished", finished, (m) => App.el("li", {
      dataset: { match: m.id, outcome: App.outcomeFor(m, me) || "" }, class: "entry",
    }, App.el("span", {},
      App.el("a", { href: `/matches/${m.id}/replay/`, title: "Review this game" }, `${gameName(m.game)}: ${players(m.players)}`),
      App.el("span", { class: "result" }, App.resultText(m, me)))), "None yet.");
  }

  refresh().catch((error) => App.showError($("rooms-error"), error));
  // No socket in the lobby: poll while it is on screen, and at once when it comes back.
  setInterval(() => { if (!document.hidden) refresh().catch(() => {}); }, 5000);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh().catch(() => {}); });
})();
