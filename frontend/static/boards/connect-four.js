// Connect Four board. Cells carry data-col (1..columns, left to right) and
// data-row (1..rows, bottom to top). A preview disc shows in the column under
// the cursor only when it is my turn and the server lists that column as legal.
"use strict";

App.boards["connect-four"] = {
  title: "Connect Four",
  create(container, ctx) {
    let state = null;
    let view = { legalMoves: [], myTurn: false, mySeat: null };
    let hoverColumn = null;
    const grid = App.el("div", { class: "c4-grid", role: "grid", "aria-label": "Connect Four board" });
    container.replaceChildren(grid);

    function lowestFree(column) {
      for (let r = state.rows - 1; r >= 0; r--) if (state.grid[r][column - 1] === null) return state.rows - r;
      return null;
    }

    function paint() {
      if (!state) return;
      const winning = new Set(state.winning_cells.map((c) => `${c.column}:${c.row}`));
      const last = state.last_move;
      const playable = hoverColumn !== null && !ctx.readonly && view.myTurn && view.legalMoves.includes(String(hoverColumn));
      const previewRow = playable ? lowestFree(hoverColumn) : null;
      grid.style.setProperty("--columns", state.columns);
      const cells = [];
      for (let r = 0; r < state.rows; r++) {
        const row = state.rows - r;
        for (let c = 1; c <= state.columns; c++) {
          const disc = state.grid[r][c - 1];
          const classes = ["c4-cell"];
          if (disc !== null) classes.push(`disc`, `disc-${disc}`);
          if (winning.has(`${c}:${row}`)) classes.push("winning");
          if (last && last.column === c && last.row === row) classes.push("last");
          if (previewRow === row && c === hoverColumn) classes.push("preview", `preview-${view.mySeat}`);
          if (hoverColumn === c && playable) classes.push("hover-column");
          cells.push(App.el("div", {
            class: classes.join(" "),
            role: "gridcell",
            dataset: { col: c, row, disc: disc === null ? "" : disc },
          }));
        }
      }
      grid.replaceChildren(...cells);
      grid.classList.toggle("my-turn", view.myTurn && !ctx.readonly);
    }

    grid.addEventListener("mouseover", (event) => {
      const cell = event.target.closest("[data-col]");
      const column = cell ? Number(cell.dataset.col) : null;
      if (column !== hoverColumn) { hoverColumn = column; paint(); }
    });
    grid.addEventListener("mouseleave", () => { hoverColumn = null; paint(); });
    grid.addEventListener("click", (event) => {
      const cell = event.target.closest("[data-col]");
      if (!cell || ctx.readonly || !view.myTurn) return;
      const move = cell.dataset.col;
      if (view.legalMoves.includes(move)) ctx.play(move);
    });

    return {
      render(newState, newView) {
        state = newState;
        view = newView;
        paint();
      },
    };
  },
};
