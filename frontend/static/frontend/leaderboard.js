// One rating pool's leaderboard: the established ratings, best first
// (GET /api/leaderboards/{pool}/). Provisional ratings are not ranked yet.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const el = App.el;
  const pool = $("leaderboard").dataset.pool;
  if (!pool) { $("leaders-loading").hidden = true; return; }

  App.api("GET", `/api/leaderboards/${encodeURIComponent(pool)}/`).then((rows) => {
    $("leaders-loading").hidden = true;
    $("leaders-empty").hidden = rows.length > 0;
    $("leaders").hidden = rows.length === 0;
    $("leaders").querySelector("tbody").replaceChildren(...rows.map((row) => el("tr", {
      dataset: { username: row.username }, class: row.username === App.username ? "mine" : null,
    },
      el("td", { class: "rank" }, row.rank),
      el("td", {}, App.playerLabel({ username: row.username, name: row.name })),
      el("td", { class: "number rating", title: interpolate(gettext("deviation %(deviation)s"), { deviation: row.deviation }, true) }, row.rating),
      el("td", { class: "number" }, row.games))));
  }).catch((error) => {
    $("leaders-loading").hidden = true;
    App.showError($("leaderboard-error"), error);
  });
})();
