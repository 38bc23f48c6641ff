// The lobby: create a room, join one, resume my games, review finished ones.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const select = $("game-select");
  const playersInput = $("players-input");

  function syncPlayers() {
    const option = select.selectedOptions[0];
    const min = Number(option.dataset.min);
    const max = Number(option.dataset.max);
    playersInput.min = min;
    playersInput.max = max;
    if (Number(playersInput.value) < min || Number(playersInput.value) > max) playersInput.value = min;
    $("players-label").hidden = min === max;
  }
  select.addEventListener("change", syncPlayers);
  syncPlayers();

  $("create-room").addEventListener("submit", async (event) => {
    event.preventDefault();
    App.showError($("create-error"), null);
    const option = select.selectedOptions[0];
    const options = {};
    if (option.dataset.min !== option.dataset.max) options.players = Number(playersInput.value);
    try {
      const room = await App.api("POST", "/api/rooms/", { game: select.value, options });
      location.href = `/rooms/${room.id}/`;
    } catch (error) {
      App.showError($("create-error"), error);
    }
  });

  $("join-code").addEventListener("submit", async (event) => {
    event.preventDefault();
    App.showError($("code-error"), null);
    const code = event.target.code.value.trim().toUpperCase();
    const rooms = await loadAll("/api/rooms/?status=open");
    const room = rooms.find((r) => r.code === code);
    if (room) location.href = `/rooms/${room.id}/`;
    else App.showError($("code-error"), new Error(`No open room has the code ${code}.`));
  });

  async function loadAll(url) {
    const page = await App.api("GET", url);
    return page.results;
  }

  function players(list) {
    return list.map((p) => p.username || (p.bot ? `AI (${p.bot})` : "—")).join(" vs ");
  }

  function fill(listId, items, render, empty) {
    const list = $(listId);
    list.replaceChildren(...(items.length ? items.map(render) : [App.el("li", { class: "muted" }, empty)]));
  }

  async function refresh() {
    const [open, active, finished] = await Promise.all([
      loadAll("/api/rooms/?status=open"),
      loadAll("/api/matches/?player=me&status=active"),
      loadAll("/api/matches/?player=me&status=finished"),
    ]);
    fill("open-rooms", open, (r) => App.el("li", { dataset: { room: r.id } },
      App.el("a", { href: `/rooms/${r.id}/` }, `${r.game} #${r.id}`),
      ` — host ${r.host}, ${r.seats.filter((s) => s.username).length}/${r.seats.length} seated`), "No open rooms. Create one!");
    fill("my-active", active, (m) => App.el("li", { dataset: { match: m.id } },
      App.el("a", { href: `/rooms/${m.room}/` }, `${m.game}: ${players(m.players)}`)), "None.");
    fill("my-finished", finished, (m) => App.el("li", { dataset: { match: m.id } },
      App.el("a", { href: `/matches/${m.id}/replay/` }, `${m.game}: ${players(m.players)}`),
      m.result ? ` — ${m.result.reason}` : ""), "None yet.");
  }
  refresh().catch(() => {});
  setInterval(() => refresh().catch(() => {}), 5000);
})();
