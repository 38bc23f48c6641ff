// A player's page: each pool's rating (a "?" while provisional) and rated
// record, a rating-history chart per pool played, and their finished games
// with the result, the opponents and the rating change, each linked to its replay.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const el = App.el;
  const svg = App.svg;
  const username = $("player").dataset.username;
  const base = `/api/players/${encodeURIComponent(username)}`;
  // Every rating pool: {pool, game, players, label}.
  const pools = JSON.parse($("pools").textContent);
  const poolLabel = (pool) => (pools.find((p) => p.pool === pool) || { label: pool }).label;
  let gameNames = {};

  const shown = (rating) => `${rating.rating}${rating.provisional ? "?" : ""}`;

  function ratingsTable(profile) {
    $("ratings").querySelector("tbody").replaceChildren(...pools.map(({ pool }) => {
      const rating = profile.ratings[pool];
      const record = profile.record[pool] || { win: 0, draw: 0, loss: 0 };
      if (!rating) return null;
      return el("tr", { dataset: { pool, provisional: rating.provisional ? "yes" : "no" }, class: rating.games ? null : "unplayed" },
        el("th", { scope: "row" }, poolLabel(pool)),
        el("td", {
          class: "number rating",
          title: interpolate(rating.provisional ? gettext("%(rating)s ± %(range)s, provisional") : gettext("%(rating)s ± %(range)s"),
            { rating: rating.rating, range: 2 * rating.deviation }, true),
        }, shown(rating)),
        el("td", { class: "number games" }, rating.games),
        el("td", { class: "number win" }, record.win),
        el("td", { class: "number draw" }, record.draw),
        el("td", { class: "number loss" }, record.loss));
    }));
  }

  // The rating a player came to their first rated game with: where the chart starts.
  async function startingRating(history) {
    try {
      const first = await App.api("GET", `/api/matches/${history[0].match}/`);
      const me = first.players.find((p) => p.username === username);
      return me && typeof me.rating === "number" ? me.rating : null;
    } catch (error) {
      return null;
    }
  }

  const WIDTH = 560;
  const HEIGHT = 180;
  const PAD = { left: 44, right: 12, top: 12, bottom: 26 };

  function chart(pool, history, start) {
    const points = history.map((h, i) => ({ ...h, index: i + 1 }));
    if (start !== null) points.unshift({ rating: start, index: 0, start: true });
    const ratings = points.map((p) => p.rating);
    let low = Math.min(...ratings);
    let high = Math.max(...ratings);
    // A flat line still gets some height; a wide one a little margin.
    const margin = Math.max(20, (high - low) * 0.1);
    low = Math.floor((low - margin) / 10) * 10;
    high = Math.ceil((high + margin) / 10) * 10;
    const first = points[0].index;
    const last = points.at(-1).index;
    const x = (i) => PAD.left + (last === first ? (WIDTH - PAD.left - PAD.right) / 2 : ((i - first) / (last - first)) * (WIDTH - PAD.left - PAD.right));
    const y = (r) => PAD.top + ((high - r) / (high - low)) * (HEIGHT - PAD.top - PAD.bottom);
    const date = (at) => (at ? new Date(at).toLocaleDateString(App.language) : "");
    return el("figure", { class: "chart", dataset: { pool } },
      el("figcaption", {}, poolLabel(pool)),
      svg("svg", {
        viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: "img", class: "rating-chart",
        "aria-label": interpolate(gettext("%(pool)s rating after each rated game: %(ratings)s"), { pool: poolLabel(pool), ratings: ratings.join(", ") }, true),
      },
        [high, low].flatMap((r) => [
          svg("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(r), y2: y(r), class: "grid" }),
          svg("text", { x: PAD.left - 6, y: y(r) + 4, class: "axis", "text-anchor": "end" }, r),
        ]),
        svg("text", { x: PAD.left, y: HEIGHT - 6, class: "axis" }, points[0].start ? gettext("start") : date(points[0].at)),
        points.length > 1 ? svg("text", { x: WIDTH - PAD.right, y: HEIGHT - 6, class: "axis", "text-anchor": "end" }, date(points.at(-1).at)) : null,
        svg("polyline", { class: "line", points: points.map((p) => `${x(p.index)},${y(p.rating)}`).join(" ") }),
        points.map((p) => svg("a", { href: p.start ? null : `/matches/${p.match}/replay/` },
          svg("circle", { cx: x(p.index), cy: y(p.rating), r: 4, class: p.start ? "point start" : "point", dataset: { rating: p.rating } },
            svg("title", {}, p.start
              ? interpolate(gettext("%(rating)s before the first rated game"), { rating: p.rating }, true)
              : interpolate(gettext("%(rating)s after the game of %(date)s"), { rating: p.rating, date: date(p.at) }, true)))))));
  }

  async function charts(profile) {
    const played = pools.filter(({ pool }) => profile.ratings[pool] && profile.ratings[pool].games > 0);
    if (!played.length) {
      $("charts").replaceChildren(el("p", { class: "muted" }, gettext("No rated games yet.")));
      return;
    }
    const drawn = await Promise.all(played.map(async ({ pool }) => {
      const history = await App.api("GET", `${base}/ratings/${encodeURIComponent(pool)}/`);
      if (!history.length) return null;
      return chart(pool, history, await startingRating(history));
    }));
    $("charts").replaceChildren(...drawn.filter(Boolean));
  }

  // --- finished games --------------------------------------------------------

  const OUTCOME = { win: gettext("Won"), draw: gettext("Drawn"), loss: gettext("Lost") };

  function matchLine(m) {
    const outcome = App.outcomeFor(m, username);
    const mine = m.players.find((p) => p.username === username);
    const others = m.players.filter((p) => p !== mine);
    const change = m.result && m.result.ratings ? m.result.ratings.find((c) => c.username === username) : null;
    const vs = [];
    others.forEach((p, i) => { if (i) vs.push(gettext(", ")); vs.push(App.playerLabel(p)); });
    return el("li", { class: "entry", dataset: { match: m.id, outcome: outcome || "" } },
      el("span", {},
        el("span", { class: `outcome outcome-${outcome || "none"}` }, OUTCOME[outcome] || gettext("Played")), " ",
        ...(others.length
          ? App.sentence(gettext("%(game)s against %(players)s"), { game: el("b", {}, gameNames[m.game] || m.game), players: el("span", {}, vs) })
          : [el("b", {}, gameNames[m.game] || m.game)]),
        el("span", { class: "result" },
          new Date(m.updated_at).toLocaleDateString(App.language), " · ",
          change
            ? [m.rated ? gettext("rated: ") : "", `${change.before} \u2192 ${change.after} `,
              el("span", { class: `change change-${change.change > 0 ? "up" : change.change < 0 ? "down" : "same"}` }, App.signed(change.change))]
            : gettext("unrated"))),
      el("a", { class: "button", href: `/matches/${m.id}/replay/`, title: gettext("Review this game") }, gettext("Replay")));
  }

  let next = `${base}/matches/`;
  async function moreMatches() {
    if (!next) return;
    const page = await App.api("GET", next);
    const list = $("player-matches");
    if (list.querySelector(".muted")) list.replaceChildren();
    list.append(...page.results.map(matchLine));
    if (!list.children.length) list.append(el("li", { class: "muted" }, gettext("No finished games yet.")));
    next = page.next;
    $("more-matches").hidden = !next;
  }
  $("more-matches").addEventListener("click", (event) => {
    const button = event.currentTarget;
    button.disabled = true;
    moreMatches().catch((error) => App.showError($("player-error"), error)).finally(() => { button.disabled = false; });
  });

  (async () => {
    gameNames = Object.fromEntries((await App.catalogue()).map((g) => [g.slug, g.name]));
    const profile = await App.api("GET", `${base}/`);
    ratingsTable(profile);
    await Promise.all([charts(profile), moreMatches()]);
  })().catch((error) => App.showError($("player-error"), error));
})();
