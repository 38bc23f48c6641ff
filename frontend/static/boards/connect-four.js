// Connect Four board. Cells carry data-col (1..columns, left to right),
// data-row (1..rows, bottom to top) and data-disc (the seat whose disc is
// there, "" when empty). A preview disc shows in the column under the cursor
// (or picked with the arrow keys) only when it is my turn and the server lists
// that column as legal; Enter or Space then plays it.
"use strict";

App.boards["connect-four"] = {
  title: gettext("Connect Four"),
  create(container, ctx) {
    let state = null;
    let view = { legalMoves: [], myTurn: false, mySeat: null };
    let hoverColumn = null;
    let cells = []; // cells[r][c - 1], r = 0 the top row, as the server's grid
    const colours = [gettext("red"), gettext("yellow")];
    const grid = App.el("div", {
      class: "c4-grid", role: "grid", "aria-label": gettext("Connect Four board"), tabindex: ctx.readonly ? null : "0",
    });
    container.replaceChildren(grid);

    function lowestFree(column) {
      for (let r = state.rows - 1; r >= 0; r--) if (state.grid[r][column - 1] === null) return state.rows - r;
      return null;
    }

    function playable(column) {
      return column !== null && !ctx.readonly && view.myTurn && view.legalMoves.includes(String(column));
    }

    // The cells are built once per board size and then only restyled, so a
    // hover does not replace the element under the pointer.
    function build() {
      cells = [];
      const nodes = [];
      grid.style.setProperty("--columns", state.columns);
      for (let r = 0; r < state.rows; r++) {
        cells.push([]);
        for (let c = 1; c <= state.columns; c++) {
          const node = App.el("div", { class: "c4-cell", role: "gridcell", dataset: { col: c, row: state.rows - r } });
          cells[r].push(node);
          nodes.push(node);
        }
      }
      grid.replaceChildren(...nodes);
    }

    function paint() {
      if (!state) return;
      if (cells.length !== state.rows || cells[0].length !== state.columns) build();
      const winning = new Set(state.winning_cells.map((c) => `${c.column}:${c.row}`));
      const last = state.last_move;
      const previewRow = playable(hoverColumn) ? lowestFree(hoverColumn) : null;
      const myTurn = view.myTurn && !ctx.readonly;
      for (let r = 0; r < state.rows; r++) {
        const row = state.rows - r;
        for (let c = 1; c <= state.columns; c++) {
          const node = cells[r][c - 1];
          const disc = state.grid[r][c - 1];
          const classes = ["c4-cell"];
          if (disc !== null) classes.push("disc", `disc-${disc}`);
          if (winning.has(`${c}:${row}`)) classes.push("winning");
          if (last && last.column === c && last.row === row) classes.push("last");
          if (previewRow === row && c === hoverColumn) classes.push("preview", `preview-${view.mySeat}`);
          if (hoverColumn === c && previewRow !== null) classes.push("hover-column");
          if (myTurn && !view.legalMoves.includes(String(c))) classes.push("blocked");
          node.className = classes.join(" ");
          node.dataset.disc = disc === null ? "" : disc;
          const what = disc === null ? gettext("empty") : colours[disc] || interpolate(gettext("seat %(seat)s"), { seat: disc + 1 }, true);
          node.setAttribute("aria-label", interpolate(gettext("column %(column)s, row %(row)s: %(disc)s"), { column: c, row, disc: what }, true));
        }
      }
      grid.classList.toggle("my-turn", myTurn);
    }

    function hover(column) {
      if (column !== hoverColumn) { hoverColumn = column; paint(); }
    }

    grid.addEventListener("mouseover", (event) => {
      const cell = event.target.closest("[data-col]");
      hover(cell ? Number(cell.dataset.col) : null);
    });
    grid.addEventListener("mouseleave", () => hover(null));
    grid.addEventListener("click", (event) => {
      const cell = event.target.closest("[data-col]");
      if (!cell) return;
      const column = Number(cell.dataset.col);
      if (playable(column)) ctx.play(String(column));
    });
    grid.addEventListener("keydown", (event) => {
      if (!state || ctx.readonly) return;
      const start = hoverColumn === null ? Math.ceil(state.columns / 2) : hoverColumn;
      if (event.key === "ArrowLeft") hover(Math.max(1, hoverColumn === null ? start : start - 1));
      else if (event.key === "ArrowRight") hover(Math.min(state.columns, hoverColumn === null ? start : start + 1));
      else if ((event.key === "Enter" || event.key === " ") && playable(hoverColumn)) ctx.play(String(hoverColumn));
      else return;
      event.preventDefault();
    });
    grid.addEventListener("blur", () => hover(null));

    return {
      render(newState, newView) {
        state = newState;
        view = newView;
        paint();
      },
    };
  },

  // The replay's review of a position: each column's exact score for the side to move.
  analysis(container, entry) {
    const scores = (entry.analysis && entry.analysis.scores) || [];
    const signed = (score) => (score === null || score === undefined ? "–" : score > 0 ? `+${score}` : String(score));
    const row = App.el("ol", { class: "c4-scores", "aria-label": gettext("Score of each column") },
      ...scores.map((score, column) => App.el("li", {
        class: score === null ? "unknown" : score > 0 ? "wins" : score < 0 ? "loses" : "draws",
        dataset: { column: column + 1 },
        title: interpolate(gettext("column %(column)s"), { column: column + 1 }, true),
      }, signed(score))));
    const parts = [row, App.el("p", { class: "muted" }, gettext(
      "Each column's exact score for the player to move: positive wins (the larger, the sooner), 0 draws, negative loses; – not computed in time.",
    ))];
    const move = entry.move;
    if (move) {
      parts.push(App.el("p", { class: move.blunder ? "blunder" : "" }, interpolate(
        move.blunder ? gettext("The move played scored %(score)s where %(best)s was possible: a blunder.")
          : gettext("The move played scored %(score)s (best %(best)s)."),
        { score: signed(move.score), best: signed(move.best) }, true,
      )));
    }
    container.replaceChildren(...parts);
  },
};
