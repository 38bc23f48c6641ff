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

  async function show(target) {
    ply = Math.max(0, Math.min(moves.length, target));
    const position = await App.api("GET", `/api/matches/${matchId}/positions/${ply}/`);
    board.render(position.state, { mySeat: match.seat, myTurn: false, legalMoves: [], players: match.players });
    $("ply-label").textContent = `${ply} / ${moves.length}`;
    $("first").disabled = $("prev").disabled = ply === 0;
    $("next").disabled = $("last").disabled = ply === moves.length;
    for (const item of $("moves").children) item.classList.toggle("current", Number(item.dataset.ply) === ply);
    const banner = $("banner");
    banner.hidden = !(ply === moves.length && match.result);
    banner.textContent = banner.hidden ? "" : App.resultText(match, App.username);
  }

  $("first").addEventListener("click", () => show(0));
  $("prev").addEventListener("click", () => show(ply - 1));
  $("next").addEventListener("click", () => show(ply + 1));
  $("last").addEventListener("click", () => show(moves.length));
  document.addEventListener("keydown", (event) => {
    const step = { ArrowLeft: ply - 1, ArrowRight: ply + 1, Home: 0, End: moves.length }[event.key];
    if (step !== undefined) { event.preventDefault(); show(step); }
  });

  (async () => {
    [match, moves] = await Promise.all([
      App.api("GET", `/api/matches/${matchId}/`),
      App.api("GET", `/api/matches/${matchId}/moves/`),
    ]);
    $("seats").replaceChildren(...match.players.map((p) => App.el("li", { class: `seat seat-${p.seat}` },
      App.el("span", { class: `swatch swatch-${p.seat}` }), p.username || (p.bot ? `AI (${p.bot})` : "—"))));
    $("moves").replaceChildren(...moves.map((m) => App.el("li", {
      dataset: { ply: m.ply }, onclick: () => show(m.ply),
    }, App.el("span", { class: `swatch swatch-${m.seat}` }), m.move)));
    await show(0);
  })();
})();
