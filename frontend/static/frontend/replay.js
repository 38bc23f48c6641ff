// Step through a match: first / previous / next / last, and arrow keys.
// Each position is asked of the server (the replay of the move log), never recomputed here.
"use strict";

(() => {
  const root = document.getElementById("replay");
  const matchId = Number(root.dataset.matchId);
  const $ = (id) => document.getElementById(id);
  const boardModule = App.boards[root.dataset.game];
  const board = boardModule.create($("board"), { play() {}, readonly: true });
  let moves = [];
  let ply = 0;
  let match = null;
  let shown = 0; // the request whose position is on screen; older answers are dropped
  let review = null; // the computer's analysis, once done: one entry a position

  // The analysis of the position on screen. The game's board script says it
  // in its own terms (boardModule.analysis); else each of its facts is listed.
  function showReview() {
    const entry = review && review[ply];
    const here = $("review-here");
    if (!entry || (!entry.analysis && !entry.move)) {
      here.replaceChildren(App.el("p", { class: "muted" }, gettext("Nothing computed for this position.")));
      return;
    }
    if (boardModule.analysis) {
      boardModule.analysis(here, entry, { ply, match });
      return;
    }
    here.replaceChildren(App.el("dl", {}, ...Object.entries(entry.analysis || {}).flatMap(([key, value]) => [
      App.el("dt", {}, key), App.el("dd", {}, value === null ? "–" : String(value)),
    ])));
  }

  function markBlunders() {
    for (const item of $("moves").children) {
      const entry = review && review[Number(item.dataset.ply)];
      const blunder = Boolean(entry && entry.move && entry.move.blunder);
      item.classList.toggle("blunder", blunder);
      if (blunder && !item.querySelector(".blunder-mark")) {
        item.append(App.el("span", {
          class: "blunder-mark", title: gettext("A blunder: this move changed the game's outcome"),
        }, "?!"));
      }
    }
  }

  // Asks for the review (the first asking queues it) and waits for it to be done.
  async function loadReview() {
    const answer = await App.api("GET", `/api/matches/${matchId}/analysis/`);
    $("review").hidden = false;
    if (answer.status === "done") {
      review = answer.positions;
      // Games the computer says nothing about (hidden hands) get no card.
      $("review").hidden = !review.some((entry) => entry && (entry.analysis || entry.move));
      $("review-status").textContent = "";
      markBlunders();
      showReview();
      return;
    }
    if (answer.status === "failed") {
      $("review-status").textContent = gettext("The analysis could not be finished.");
      return;
    }
    $("review-status").textContent = interpolate(
      gettext("Analysing: %(done)s of %(plies)s positions…"), { done: answer.done, plies: answer.plies }, true,
    );
    setTimeout(() => loadReview().catch((error) => App.showError($("replay-error"), error)), 1000);
  }

  function controls() {
    $("ply-label").textContent = `${ply} / ${moves.length}`;
    $("first").disabled = $("prev").disabled = ply === 0;
    $("next").disabled = $("last").disabled = ply === moves.length;
    for (const item of $("moves").children) {
      const current = Number(item.dataset.ply) === ply;
      item.classList.toggle("current", current);
      if (current) item.scrollIntoView({ block: "nearest" });
    }
  }

  async function show(target) {
    if (!match) return;
    ply = Math.max(0, Math.min(moves.length, target));
    controls();
    const request = ++shown;
    let position;
    try {
      position = await App.api("GET", `/api/matches/${matchId}/positions/${ply}/`);
    } catch (error) {
      if (request === shown) App.showError($("replay-error"), error);
      return;
    }
    // Fast clicks send several requests; draw only the newest answer.
    if (request !== shown) return;
    App.showError($("replay-error"), null);
    // The match goes along so a board can tell a resigned game is over even
    // though the engine's last position still names someone to move.
    board.render(position.state, {
      mySeat: match.seat, myTurn: false, legalMoves: [], players: match.players, match, ply, last: ply === moves.length,
    });
    const banner = $("banner");
    banner.hidden = !(ply === moves.length && match.result);
    banner.replaceChildren(...(banner.hidden ? [] : [App.resultText(match, App.username), App.ratingChanges(match)].filter(Boolean)));
    banner.dataset.outcome = banner.hidden ? "" : App.outcomeFor(match, App.username) || "";
    if (review) showReview();
  }

  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(ply - 1));
  $("next").addEventListener("click", () => show(ply + 1));
  $("last").addEventListener("click", () => show(moves.length));
  document.addEventListener("keydown", (event) => {
    if (event.target.closest && event.target.closest("input, textarea, select")) return;
    const step = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: moves.length }[event.key];
    if (step !== undefined) { event.preventDefault(); show(step); }
  });

  (async () => {
    [match, moves] = await Promise.all([
      App.api("GET", `/api/matches/${matchId}/`),
      App.api("GET", `/api/matches/${matchId}/moves/`),
    ]);
    $("seats").replaceChildren(...match.players.map((p) => App.el("li", {
      class: `seat seat-${p.seat}${p.username && p.username === App.username ? " mine" : ""}`,
      dataset: p.username && p.username === App.username ? { you: gettext("you") } : {},
    }, App.el("span", { class: `swatch swatch-${p.seat}` }), App.playerLabel(p))));
    $("moves").replaceChildren(...moves.map((m) => App.el("li", {
      dataset: { ply: m.ply, move: m.move }, onclick: () => show(m.ply),
      title: interpolate(gettext("%(move)s: the position after move %(ply)s"), { move: m.move, ply: m.ply }, true),
    }, App.el("span", { class: "ply" }, `${m.ply}.`), App.el("span", { class: `swatch swatch-${m.seat}` }),
    App.el("span", { class: "move-text" }, App.words(m.words, m.text) || m.move), App.madeByTag(m))));
    if (match.status === "active") $("replay-status").textContent = gettext("This game is still being played; the replay shows the moves so far.");
    await show(0);
    // Only a finished match is reviewed (a game in play gets no computer's
    // help), and only when asked: a review costs the server seconds of solving.
    if (match.status !== "active") {
      $("review").hidden = false;
      $("analyse").addEventListener("click", () => {
        $("analyse").hidden = true;
        loadReview().catch((error) => App.showError($("replay-error"), error));
      });
    }
  })().catch((error) => App.showError($("replay-error"), error));
})();
