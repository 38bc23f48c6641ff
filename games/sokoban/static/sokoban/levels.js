// Sokoban's level browser: the collections with my progress, a level starts
// a room of its own, and uploads (the server checks them and says why not).
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const el = App.el;
  const BUNDLED = ["Microban", "Microban II", "Uploads"]; // shown even before the server lists one
  const PREVIEW = { width: 96, height: 72 };
  const loaded = new Map(); // collection -> its levels, all pages
  let collections = [];
  let current = null;
  let shown = 0; // only the newest collection asked for is drawn
  const UPLOADS = "Uploads";
  // A collection's name as shown: the bundled ones are names; the uploads' is words.
  const collectionName = (name) => (name === UPLOADS ? gettext("Uploads") : name);

  // Every page of a list, the later pages fetched together once the count is known.
  async function allLevels(collection) {
    const base = `/api/sokoban/levels/?collection=${encodeURIComponent(collection)}`;
    const first = await App.api("GET", base);
    const levels = [...first.results];
    if (first.next && first.results.length) {
      const pages = Math.ceil(first.count / first.results.length);
      const rest = await Promise.all(
        Array.from({ length: pages - 1 }, (_, i) => App.api("GET", `${base}&page=${i + 2}`)));
      for (const page of rest) levels.push(...page.results);
    }
    return levels;
  }

  // A small picture of the level's start, drawn on a canvas (crisp at any pixel ratio).
  function preview(xsb) {
    const rows = xsb.replace(/\n+$/, "").split("\n");
    const width = Math.max(...rows.map((r) => r.length));
    const height = rows.length;
    const cell = Math.max(2, Math.floor(Math.min(PREVIEW.width / width, PREVIEW.height / height, 14)));
    const canvas = el("canvas", { class: "skb-preview", "aria-hidden": "true" });
    const ratio = window.devicePixelRatio || 1;
    canvas.width = width * cell * ratio;
    canvas.height = height * cell * ratio;
    canvas.style.width = `${width * cell}px`;
    canvas.style.height = `${height * cell}px`;
    const pen = canvas.getContext("2d");
    pen.scale(ratio, ratio);
    // Floor is what the player can reach from the start; the rest outside stays blank.
    const reach = new Set();
    const start = [];
    rows.forEach((row, y) => [...row].forEach((c, x) => { if (c === "@" || c === "+") start.push([x, y]); }));
    while (start.length) {
      const [x, y] = start.pop();
      const key = `${x},${y}`;
      const c = (rows[y] || "")[x];
      if (reach.has(key) || c === undefined || c === "#") continue;
      reach.add(key);
      start.push([x + 1, y], [x - 1, y], [x, y + 1], [x, y - 1]);
    }
    rows.forEach((row, y) => [...row].forEach((c, x) => {
      const px = x * cell;
      const py = y * cell;
      if (c === "#") { pen.fillStyle = "#6b7280"; pen.fillRect(px, py, cell, cell); return; }
      if (!reach.has(`${x},${y}`) && !"$*.".includes(c)) return;
      pen.fillStyle = "#ece4d0";
      pen.fillRect(px, py, cell, cell);
      if (".+*".includes(c)) {
        pen.strokeStyle = "#d4543a";
        pen.lineWidth = Math.max(1, cell / 7);
        pen.beginPath();
        pen.arc(px + cell / 2, py + cell / 2, cell / 4, 0, Math.PI * 2);
        pen.stroke();
      }
      if (c === "$" || c === "*") {
        pen.fillStyle = c === "*" ? "#4fae62" : "#c98a3f";
        const inset = Math.max(1, Math.round(cell / 8));
        pen.fillRect(px + inset, py + inset, cell - 2 * inset, cell - 2 * inset);
      }
      if (c === "@" || c === "+") {
        pen.fillStyle = "#2f6fb3";
        pen.beginPath();
        pen.arc(px + cell / 2, py + cell / 2, cell * 0.36, 0, Math.PI * 2);
        pen.fill();
      }
    }));
    return canvas;
  }

  function tile(level) {
    const best = level.solved
      ? interpolate(gettext("%(moves)s moves · %(pushes)s pushes"), { moves: level.best_moves, pushes: level.best_pushes }, true) : "";
    // A solve with the solver is not the player's own: marked apart, with no best.
    const helped = level.solved_with_solver && !level.solved;
    const progress = level.solved ? interpolate(gettext("solved, best %(best)s"), { best }, true)
      : helped ? gettext("solved with the solver only") : gettext("not solved yet");
    const label = [level.title, progress, level.verified === "unverified" ? gettext("not verified by the solver") : ""]
      .filter(Boolean).join(gettext(", "));
    const named = level.collection === UPLOADS;
    return el("li", {},
      el("button", {
        type: "button", class: "skb-tile", "aria-label": label, title: label,
        dataset: { levelId: level.id, number: level.number, solved: level.solved ? "yes" : "no", solver: level.solved_with_solver ? "yes" : "no" },
        onclick: (event) => start(level, event.currentTarget),
      },
      el("span", { class: "skb-number" }, level.number),
      level.solved ? el("span", { class: "skb-check", "aria-hidden": "true" }, "✓") : null,
      el("span", { class: "skb-picture" }, preview(level.xsb)),
      named ? el("span", { class: "skb-name" }, level.title) : null,
      helped ? el("span", { class: "skb-solver", title: gettext("Solved with the solver's answer: not counted as solved") }, gettext("with the solver")) : null,
      el("span", { class: "skb-best" }, level.solved ? best
        : interpolate(ngettext("%(count)s box", "%(count)s boxes", level.boxes), { count: level.boxes }, true)),
      named && level.uploaded_by ? el("span", { class: "skb-by" }, interpolate(gettext("by %(name)s"), { name: level.uploaded_by }, true)) : null,
      level.verified === "unverified" ? el("span", { class: "skb-unverified" }, gettext("unverified")) : null));
  }

  async function start(level, button) {
    button.disabled = true;
    App.showError($("levels-error"), null);
    try {
      const room = await App.api("POST", "/api/rooms/", { game: "sokoban", options: { level_id: level.id } });
      location.href = `/rooms/${room.id}/`;
    } catch (error) {
      button.disabled = false;
      App.showError($("levels-error"), error);
    }
  }

  function drawTabs() {
    $("collections").replaceChildren(...collections.map((c) => el("button", {
      type: "button", role: "tab", class: "skb-tab", "aria-selected": c.name === current ? "true" : "false",
      dataset: { collection: c.name }, onclick: () => show(c.name),
    }, collectionName(c.name), " ", el("span", { class: "skb-count" }, `${c.solved} / ${c.levels}`))));
  }

  function drawSummary() {
    const c = collections.find((x) => x.name === current);
    if (!c) return;
    $("collection-summary").textContent = c.levels
      ? interpolate(ngettext("%(solved)s of %(count)s solved.", "%(solved)s of %(count)s solved.", c.levels), { solved: c.solved, count: c.levels }, true)
      : current === UPLOADS ? gettext("No uploads yet: paste a level in the form to add one.") : gettext("No levels.");
  }

  async function show(name, highlight) {
    current = name;
    const request = ++shown;
    if (location.hash !== `#${encodeURIComponent(name)}`) history.replaceState(null, "", `#${encodeURIComponent(name)}`);
    drawTabs();
    drawSummary();
    App.showError($("levels-error"), null);
    const list = $("levels");
    if (!loaded.has(name)) list.replaceChildren(el("li", { class: "muted" }, gettext("Loading…")));
    try {
      if (!loaded.has(name)) loaded.set(name, await allLevels(name));
    } catch (error) {
      if (request === shown) App.showError($("levels-error"), error);
      return;
    }
    if (request !== shown) return;
    list.replaceChildren(...loaded.get(name).map(tile));
    if (highlight) {
      const added = list.querySelector(`[data-level-id="${highlight}"]`);
      if (added) { added.classList.add("fresh"); added.scrollIntoView({ block: "nearest" }); }
    }
  }

  async function loadCollections() {
    const listed = await App.api("GET", "/api/sokoban/collections/");
    const byName = new Map(listed.map((c) => [c.name, c]));
    const names = [...BUNDLED.filter((n) => n !== UPLOADS), ...listed.map((c) => c.name), UPLOADS];
    collections = [...new Set(names)].map((name) => byName.get(name) || { name, levels: 0, solved: 0 });
  }

  $("upload").addEventListener("submit", async (event) => {
    event.preventDefault();
    const button = $("upload-button");
    const text = $("upload-text").value;
    const title = $("upload-title").value.trim();
    App.showError($("upload-error"), null);
    $("upload-done").hidden = true;
    button.disabled = true;
    $("upload-busy").hidden = false;
    try {
      const stored = await App.api("POST", "/api/sokoban/levels/", title ? { text, title } : { text });
      const names = stored.map((l) => (l.verified === "unverified"
        ? interpolate(gettext("%(title)s (not verified: the solver could not decide in time)"), { title: l.title }, true) : l.title));
      $("upload-done").replaceChildren(interpolate(gettext("Added to Uploads: %(levels)s."), { levels: names.join(gettext(", ")) }, true));
      $("upload-done").hidden = false;
      $("upload-text").value = "";
      $("upload-title").value = "";
      loaded.delete(UPLOADS);
      await loadCollections();
      await show(UPLOADS, stored.length ? stored[0].id : null);
    } catch (error) {
      // The server's reason, as it says it: "no player", "boxes and goals unequal", "cannot be solved"...
      App.showError($("upload-error"), error);
    } finally {
      button.disabled = false;
      $("upload-busy").hidden = true;
    }
  });

  (async () => {
    await loadCollections();
    const wanted = decodeURIComponent(location.hash.slice(1));
    await show(collections.some((c) => c.name === wanted) ? wanted : collections[0].name);
  })().catch((error) => App.showError($("levels-error"), error));
})();
