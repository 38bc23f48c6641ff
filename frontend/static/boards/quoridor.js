// Quoridor board (2 or 4 players), drawn as SVG, row 1 at the bottom as seen
// by P1. It knows no rules: what it offers comes from view.legalMoves.
//
// What tests (and people) can find on it:
//   [data-square="e2"]      the 81 squares; a legal destination on hover gets .legal
//   [data-fence="e3h"]      the 128 fence slots in the grooves; hovering one
//                           draws [data-preview="e3h"] only if e3h is legal
//   [data-pawn="0"]         a pawn, with data-at="e1"
//   [data-placed="e3h"]     a fence on the board (.last if it was the last move)
//   .q-player[data-seat]    one line per seat, with data-fences-left and data-to-move
//
// Pawn moves: hover your pawn (or a square it can reach) to see where it can
// go, click one of them. Fences: hover a groove; the fence it would place
// starts at the square under the pointer and reaches right (or up), so the
// groove under column i places the fence on h and i.
//
// Keys, once the board has the focus (Tab to it): the arrows move a cursor
// (.q-cursor, from your pawn); Enter or Space moves the pawn to the square
// under it; H and V show a fence above or to the right of that square, which
// Enter then places (F switches square, H, V in turn); Esc goes back to
// squares. Only moves the server lists are played.
"use strict";

(() => {
  const COLUMNS = "abcdefghi";
  const SIZE = 9;
  const SQUARE = 46; // side of a square
  const GROOVE = 14; // width of a groove between squares
  const PITCH = SQUARE + GROOVE;
  const FRAME = 14; // the board's rim around the squares, where goal sides are coloured
  const LABELS = 24; // room for row numbers (left) and column letters (below)
  const INNER = SIZE * SQUARE + (SIZE - 1) * GROOVE;
  const LEFT = LABELS + FRAME; // x of column a
  const TOP = FRAME + 4; // y of row 9
  const WIDTH = LEFT + INNER + FRAME + 4;
  const HEIGHT = TOP + INNER + FRAME + LABELS;
  const HIT = 4; // a fence slot's hit area reaches this far onto the squares beside its groove

  const svg = App.svg;

  // Column 0..8 (a..i) and row 0..8 (1..9) of a square name; null for anything else.
  function squareAt(name) {
    if (typeof name !== "string" || !/^[a-i][1-9]$/.test(name)) return null;
    return { column: COLUMNS.indexOf(name[0]), row: Number(name[1]) - 1 };
  }

  function squareName(column, row) {
    return `${COLUMNS[column]}${row + 1}`;
  }

  // Top-left corner of a square in board units.
  const xOf = (column) => LEFT + column * PITCH;
  const yOf = (row) => TOP + (SIZE - 1 - row) * PITCH;

  // A fence written like e3h / e3v: corner square nearest a1 and its orientation.
  function fenceAt(name) {
    if (typeof name !== "string" || !/^[a-h][1-8][hv]$/.test(name)) return null;
    return { column: COLUMNS.indexOf(name[0]), row: Number(name[1]) - 1, horizontal: name[2] === "h" };
  }

  // The rectangle a fence covers: two squares long, in the groove, a little
  // wider than it so that it reads as standing in it.
  const FENCE = GROOVE + 2;
  function fenceRect(fence) {
    const inset = (GROOVE - FENCE) / 2;
    if (fence.horizontal) {
      return { x: xOf(fence.column) + 1, y: yOf(fence.row) - GROOVE + inset, width: 2 * SQUARE + GROOVE - 2, height: FENCE };
    }
    return { x: xOf(fence.column) + SQUARE + inset, y: yOf(fence.row + 1) + 1, width: FENCE, height: 2 * SQUARE + GROOVE - 2 };
  }

  // The hit area of a fence slot: the groove beside its corner square (plus
  // half the crossing after it), and for the last slot of a groove line also
  // the groove beside the ninth square, so every piece of groove places a fence.
  function slotRect(fence) {
    const last = SIZE - 2;
    if (fence.horizontal) {
      const x = xOf(fence.column);
      const end = fence.column === last ? xOf(SIZE - 1) + SQUARE : x + SQUARE + GROOVE / 2;
      return { x, y: yOf(fence.row) - GROOVE - HIT, width: end - x, height: GROOVE + 2 * HIT };
    }
    const bottom = yOf(fence.row) + SQUARE;
    const top = fence.row === last ? yOf(SIZE - 1) : yOf(fence.row) - GROOVE / 2;
    return { x: xOf(fence.column) + SQUARE - HIT, y: top, width: GROOVE + 2 * HIT, height: bottom - top };
  }

  // Which side of the board a goal is: all its squares share a row or a column.
  function goalSide(squares) {
    const places = (squares || []).map(squareAt).filter(Boolean);
    if (!places.length) return null;
    if (places.every((p) => p.row === places[0].row)) return places[0].row === SIZE - 1 ? "top" : "bottom";
    if (places.every((p) => p.column === places[0].column)) return places[0].column === SIZE - 1 ? "right" : "left";
    return null;
  }

  function goalStrip(side, seat) {
    const from = FRAME - 5;
    const cls = `q-goal q-seat-${seat}`;
    const span = INNER + 2 * from;
    if (side === "top") return svg("rect", { class: cls, x: LEFT - from, y: TOP - from - 5 + 1, width: span, height: 5, rx: 2 });
    if (side === "bottom") return svg("rect", { class: cls, x: LEFT - from, y: TOP + INNER + from - 1, width: span, height: 5, rx: 2 });
    if (side === "left") return svg("rect", { class: cls, x: LEFT - from - 5 + 1, y: TOP - from, width: 5, height: span, rx: 2 });
    return svg("rect", { class: cls, x: LEFT + INNER + from - 1, y: TOP - from, width: 5, height: span, rx: 2 });
  }

  App.boards.quoridor = {
    title: gettext("Quoridor"),
    create(container, ctx) {
      let state = null;
      let view = { legalMoves: [], myTurn: false, mySeat: null, players: [] };
      let hoverSquare = null; // square name under the pointer
      let hoverFence = null; // fence slot name under the pointer
      let selected = false; // my pawn was clicked: keep its destinations shown
      let pointerType = "mouse";
      let armedFence = null; // on a touch screen the first tap on a slot only previews it
      let cursor = null; // {column, row} of the keyboard's square; null until a key moves it
      let cursorMode = "square"; // square | h | v: what Enter plays at the cursor
      let focused = false;

      const squares = new Map(); // name -> rect
      const board = svg("svg", {
        class: "q-board", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: ctx.readonly ? "img" : "application",
        "aria-label": ctx.readonly ? gettext("Quoridor board")
          : gettext("Quoridor board: arrows move the cursor, Enter moves your pawn there, H or V then Enter places a fence"),
        tabindex: ctx.readonly ? null : "0",
      });
      const squareLayer = svg("g", { class: "q-squares" });
      const goalLayer = svg("g", { class: "q-goals" });
      const pieceLayer = svg("g", { class: "q-pieces" }); // redrawn on every paint; never under the pointer
      const slotLayer = svg("g", { class: "q-slots" });
      board.append(
        svg("rect", { class: "q-frame", x: LABELS, y: 4, width: INNER + 2 * FRAME, height: INNER + 2 * FRAME, rx: 10 }),
        goalLayer, squareLayer, pieceLayer, slotLayer,
      );
      for (let row = 0; row < SIZE; row++) {
        for (let column = 0; column < SIZE; column++) {
          const name = squareName(column, row);
          const rect = svg("rect", {
            class: "q-square", x: xOf(column), y: yOf(row), width: SQUARE, height: SQUARE, rx: 4,
            dataset: { square: name },
          });
          squares.set(name, rect);
          squareLayer.append(rect);
        }
      }
      for (let i = 0; i < SIZE; i++) {
        board.append(
          svg("text", { class: "q-label", x: xOf(i) + SQUARE / 2, y: TOP + INNER + FRAME + LABELS / 2 + 2, text: COLUMNS[i] }),
          svg("text", { class: "q-label", x: LABELS / 2, y: yOf(i) + SQUARE / 2, text: String(i + 1) }),
        );
      }
      for (const horizontal of [true, false]) {
        for (let row = 0; row < SIZE - 1; row++) {
          for (let column = 0; column < SIZE - 1; column++) {
            const name = `${squareName(column, row)}${horizontal ? "h" : "v"}`;
            slotLayer.append(svg("rect", { class: "q-slot", ...slotRect({ column, row, horizontal }), dataset: { fence: name } }));
          }
        }
      }

      const players = App.el("ol", { class: "q-players", "aria-label": gettext("Players") });
      const lastLine = App.el("p", { class: "q-last muted" });
      const hint = App.el("p", { class: "q-hint" });
      const passButton = App.el("button", { type: "button", class: "q-pass", hidden: true }, gettext("Pass"));
      // The keys' names are the keys (never translated); the words around them are.
      const keys = App.el("p", { class: "q-keys muted", hidden: true }, ...App.sentence(
        gettext("Keys: %(arrows)s cursor, %(enter)s play, %(h)s/%(v)s fence, %(esc)s back to squares."), {
          arrows: App.el("kbd", {}, "←↑→↓"), enter: App.el("kbd", {}, "Enter"), h: App.el("kbd", {}, "H"),
          v: App.el("kbd", {}, "V"), esc: App.el("kbd", {}, "Esc"),
        }));
      const panel = App.el("div", { class: "q-panel" }, players, lastLine, hint, keys, passButton);
      container.replaceChildren(App.el("div", { class: "q-layout" }, App.el("div", { class: "q-board-wrap" }, board), panel));

      function legal() {
        return !ctx.readonly && view.myTurn ? view.legalMoves || [] : [];
      }

      // Who is to move: the room page passes the match, which knows of
      // resignations the engine's state never hears of; the replay does not.
      function toMoveNow() {
        if (view.match && Array.isArray(view.match.to_move)) return view.match.to_move;
        return state.to_move || [];
      }

      function nameOf(seat) {
        const player = (view.players || []).find((p) => p.seat === seat);
        const label = state && state.names ? state.names[seat] : `P${seat + 1}`;
        return player ? `${App.playerName(player)} (${label})` : label;
      }

      function paintPanel() {
        const toMove = toMoveNow();
        const results = state.outcome ? state.outcome.results : [];
        players.replaceChildren(...state.pawns.map((at, seat) => {
          const left = state.walls_left[seat];
          const mine = seat === view.mySeat;
          const tags = [];
          if (toMove.includes(seat)) tags.push(App.el("span", { class: "q-tag to-move" }, gettext("to move")));
          if (results[seat] === "win") tags.push(App.el("span", { class: "q-tag won" }, gettext("won")));
          return App.el("li", {
            class: `q-player${mine ? " mine" : ""}${toMove.includes(seat) ? " to-move" : ""}`,
            dataset: { seat, fencesLeft: left, toMove: toMove.includes(seat) ? "yes" : "no" },
          },
          App.el("span", { class: `swatch swatch-${seat}` }),
          App.el("span", { class: "q-name" }, nameOf(seat), mine ? App.el("span", { class: "q-you" }, gettext(" (you)")) : null),
          ...tags,
          // A person who resigned or left: the computer plays the seat on (or the game ended).
          App.seatNote((view.players || []).find((p) => p.seat === seat) || { seat }, view.match),
          App.el("span", { class: "q-detail" },
            App.el("span", { class: "q-fences", "aria-hidden": "true" },
              ...Array.from({ length: left }, () => App.el("i", { class: "q-fence-chip" }))),
            App.el("span", { class: "q-count" }, interpolate(ngettext("%(count)s fence left", "%(count)s fences left", left), { count: left }, true))),
          App.el("span", { class: "q-where muted" }, interpolate(gettext("on %(square)s · goal: %(goal)s"), { square: at, goal: state.goals[seat] }, true)));
        }));
        const last = state.last_move;
        if (!last) lastLine.textContent = gettext("No moves yet.");
        else if (last.move === "pass") lastLine.textContent = interpolate(gettext("Last move: %(seat)s passed"), { seat: state.names[last.seat] }, true);
        else lastLine.textContent = interpolate(gettext("Last move: %(seat)s %(move)s"), { seat: state.names[last.seat], move: last.move }, true);
        lastLine.dataset.lastMove = last ? last.move : "";
        const moves = legal();
        const canFence = moves.some((m) => fenceAt(m));
        const canStep = moves.some((m) => squareAt(m));
        if (!moves.length) hint.textContent = "";
        else if (canStep && canFence) hint.textContent = gettext("Your turn: click a square your pawn can reach (hover your pawn to see them), or hover a groove and click to place a fence.");
        else if (canStep) hint.textContent = state.walls_left[view.mySeat] ? gettext("Your turn: move your pawn (no fence fits).") : gettext("Your turn: move your pawn (you have no fences left).");
        else if (canFence) hint.textContent = gettext("Your pawn cannot move: place a fence.");
        else hint.textContent = gettext("You have no legal move: pass.");
        hint.hidden = !moves.length;
        keys.hidden = !moves.length;
        passButton.hidden = !moves.includes("pass");
      }

      function paint() {
        if (!state) return;
        const moves = legal();
        const destinations = new Set(moves.filter((m) => squareAt(m)));
        const fences = new Set(moves.filter((m) => fenceAt(m)));
        const myPawn = view.mySeat !== null && view.mySeat !== undefined ? state.pawns[view.mySeat] : null;
        const showDestinations = destinations.size > 0
          && (selected || hoverSquare === myPawn || destinations.has(hoverSquare));
        const last = state.last_move ? state.last_move.move : null;
        for (const [name, rect] of squares) {
          const classes = ["q-square"];
          if (showDestinations && destinations.has(name)) classes.push("legal");
          if (showDestinations && name === hoverSquare && destinations.has(name)) classes.push("target");
          if (destinations.size && name === myPawn) classes.push("movable");
          if (name === last) classes.push("last");
          rect.setAttribute("class", classes.join(" "));
        }
        board.classList.toggle("my-turn", moves.length > 0);
        board.classList.toggle("fence-ok", hoverFence !== null && fences.has(hoverFence));

        goalLayer.replaceChildren(...(state.goal_squares || []).map((goal, seat) => {
          const side = goalSide(goal);
          return side ? goalStrip(side, seat) : null;
        }).filter(Boolean));

        const drawn = [];
        for (const name of state.fences) {
          const fence = fenceAt(name);
          if (!fence) continue;
          drawn.push(svg("rect", { class: `q-fence${name === last ? " last" : ""}`, ...fenceRect(fence), rx: 3, dataset: { placed: name } }));
        }
        if (hoverFence && fences.has(hoverFence)) {
          drawn.push(svg("rect", {
            class: `q-fence-preview q-seat-${view.mySeat}`, ...fenceRect(fenceAt(hoverFence)), rx: 3, dataset: { preview: hoverFence },
          }));
        }
        if (showDestinations) {
          for (const name of destinations) {
            const at = squareAt(name);
            const cx = xOf(at.column) + SQUARE / 2;
            const cy = yOf(at.row) + SQUARE / 2;
            drawn.push(name === hoverSquare
              ? svg("circle", { class: `q-ghost q-seat-${view.mySeat}`, cx, cy, r: 16.5 })
              : svg("circle", { class: "q-dot", cx, cy, r: 6 }));
          }
        }
        const toMove = toMoveNow();
        state.pawns.forEach((name, seat) => {
          const at = squareAt(name);
          if (!at) return;
          const cx = xOf(at.column) + SQUARE / 2;
          const cy = yOf(at.row) + SQUARE / 2;
          drawn.push(svg("g", {
            class: `q-pawn${toMove.includes(seat) ? " to-move" : ""}`, dataset: { pawn: seat, at: name },
          },
          svg("circle", { class: "q-pawn-ring", cx, cy, r: 20.5 }),
          svg("circle", { class: `q-pawn-body q-seat-${seat}`, cx, cy, r: 16.5 }),
          svg("circle", { class: "q-pawn-shine", cx: cx - 7, cy: cy - 8, r: 3.5 }),
          svg("text", { class: "q-pawn-label", x: cx, y: cy + 1, text: String(seat + 1) })));
        });
        // The keyboard's cursor: a square, or the fence slot above or right of it.
        if (focused && cursor) {
          const fence = cursorFence();
          if (fence) {
            const legalFence = fences.has(fence);
            drawn.push(svg("rect", {
              class: `q-cursor q-cursor-fence${legalFence ? "" : " illegal"}`, ...fenceRect(fenceAt(fence)), rx: 3,
              dataset: { cursor: fence },
            }));
          } else {
            drawn.push(svg("rect", {
              class: "q-cursor", x: xOf(cursor.column) - 3, y: yOf(cursor.row) - 3, width: SQUARE + 6, height: SQUARE + 6, rx: 6,
              dataset: { cursor: squareName(cursor.column, cursor.row) },
            }));
          }
        }
        pieceLayer.replaceChildren(...drawn);
        paintPanel();
      }

      // The fence the cursor stands for in H or V mode (its corner square is the cursor's,
      // kept inside the 8x8 corners a fence can have); null in square mode.
      function cursorFence() {
        if (!cursor || cursorMode === "square") return null;
        const column = Math.min(cursor.column, SIZE - 2);
        const row = Math.min(cursor.row, SIZE - 2);
        return `${squareName(column, row)}${cursorMode}`;
      }

      // The first key starts the cursor at my pawn (a spectator's in the middle).
      function startCursor() {
        const mine = view.mySeat !== null && view.mySeat !== undefined ? squareAt(state.pawns[view.mySeat]) : null;
        return mine || { column: 4, row: 4 };
      }

      function aim() {
        // What the cursor shows goes through the same preview as the pointer's.
        const fence = cursorFence();
        hoverSquare = fence ? null : squareName(cursor.column, cursor.row);
        hoverFence = fence;
        paint();
      }

      board.addEventListener("keydown", (event) => {
        if (ctx.readonly || !state) return;
        const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
        const key = event.key;
        const letter = key.length === 1 ? key.toLowerCase() : "";
        if (steps[key]) {
          if (!cursor) {
            cursor = startCursor();
          } else {
            cursor = {
              column: Math.max(0, Math.min(SIZE - 1, cursor.column + steps[key][0])),
              row: Math.max(0, Math.min(SIZE - 1, cursor.row + steps[key][1])),
            };
          }
        } else if (letter === "h" || letter === "v") {
          cursorMode = cursorMode === letter ? "square" : letter;
        } else if (letter === "f") {
          cursorMode = { square: "h", h: "v", v: "square" }[cursorMode];
        } else if (key === "Escape") {
          cursorMode = "square";
          selected = false;
        } else if (key === "Enter" || key === " ") {
          if (!cursor) return;
          const moves = legal();
          const fence = cursorFence();
          const square = squareName(cursor.column, cursor.row);
          if (fence) {
            if (moves.includes(fence)) { cursorMode = "square"; ctx.play(fence); }
          } else if (moves.includes(square)) {
            selected = false;
            ctx.play(square);
          } else if (view.mySeat !== null && square === state.pawns[view.mySeat]) {
            selected = !selected;
          }
        } else {
          return;
        }
        event.preventDefault();
        if (!cursor) cursor = startCursor();
        aim();
      });
      board.addEventListener("focus", () => { focused = true; if (cursor) aim(); });
      board.addEventListener("blur", () => { focused = false; hover(null, null); paint(); });

      function hover(square, fence) {
        if (square === hoverSquare && fence === hoverFence) return;
        hoverSquare = square;
        hoverFence = fence;
        if (fence !== armedFence) armedFence = null;
        paint();
      }

      board.addEventListener("pointerdown", (event) => { pointerType = event.pointerType || "mouse"; });
      board.addEventListener("mouseover", (event) => {
        const slot = event.target.closest("[data-fence]");
        const square = event.target.closest("[data-square]");
        hover(square ? square.dataset.square : null, slot ? slot.dataset.fence : null);
      });
      board.addEventListener("mouseleave", () => hover(null, null));
      board.addEventListener("click", (event) => {
        const moves = legal();
        if (!moves.length) return;
        const slot = event.target.closest("[data-fence]");
        if (slot) {
          const fence = slot.dataset.fence;
          if (!moves.includes(fence)) return;
          if (pointerType === "touch" && armedFence !== fence) {
            // A tap has no hover: show the fence first, place it on a second tap.
            armedFence = fence;
            hoverFence = fence;
            hoverSquare = null;
            paint();
            return;
          }
          armedFence = null;
          ctx.play(fence);
          return;
        }
        const square = event.target.closest("[data-square]");
        if (!square) return;
        const name = square.dataset.square;
        if (moves.includes(name)) {
          selected = false;
          ctx.play(name);
        } else {
          selected = name === state.pawns[view.mySeat] ? !selected : false;
          paint();
        }
      });
      passButton.addEventListener("click", () => { if (legal().includes("pass")) ctx.play("pass"); });

      return {
        render(newState, newView) {
          state = newState;
          view = newView;
          if (!legal().length) { selected = false; armedFence = null; }
          paint();
        },
      };
    },

    // The replay's review of a position: the race, each pawn's shortest way to its goal.
    analysis(container, entry, { match }) {
      const distances = (entry.analysis && entry.analysis.distances) || [];
      container.replaceChildren(
        App.el("ol", { class: "q-distances" }, ...distances.map((steps, seat) => {
          const player = match.players.find((p) => p.seat === seat);
          return App.el("li", { dataset: { seat } },
            App.el("span", { class: `swatch swatch-${seat}` }), player ? App.playerLabel(player) : "",
            " ", interpolate(ngettext("%(steps)s step to go", "%(steps)s steps to go", steps), { steps }, true));
        })),
        App.el("p", { class: "muted" }, gettext("The fewest steps each pawn still needs to its goal, around the fences.")),
      );
    },
  };
})();
