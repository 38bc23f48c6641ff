// Eskimo board: two players' pieces and the polar bear on a 5x5 floe, drawn as
// SVG with row 1 (player 1's side) at the bottom. It knows no rules: the moves
// it offers are view.legalMoves, and where each one ends is the engine's
// state.destinations ({"c1-ne": "e3", ...}).
//
// What tests (and people) can find on it:
//   [data-square="c3"]       the 25 squares
//   [data-piece="0"]         a piece of seat 0, with data-at="a1"
//   [data-bear]              the bear, with data-at and data-cooldown
//   .esk-arrow[data-move]    after a click on a piece (or the bear): one arrow per
//   [data-square][data-move] legal move of it, and the square where it ends,
//                            which then carries that move (and class "offered")
//   .esk-bear-note           "The bear rests for N more turns" (data-cooldown)
//
// To move: click one of your pieces or the bear, then an arrow or a marked
// square. Hovering a piece that can move previews where it can go.
//
// Keys, once the board has the focus (Tab to it): the arrows move a cursor
// (.esk-cursor, from the first piece that can move); Enter or Space on a
// piece (or the awake bear) picks it, and on a marked square moves it there;
// Esc drops the pick. Only moves the server lists are played.
"use strict";

(() => {
  const COLUMNS = "abcde";
  const SIZE = 5;
  const SQUARE = 76;
  const GAP = 4;
  const PITCH = SQUARE + GAP;
  const FRAME = 12;
  const LABELS = 24;
  const INNER = SIZE * SQUARE + (SIZE - 1) * GAP;
  const LEFT = LABELS + FRAME;
  const TOP = FRAME + 4;
  const WIDTH = LEFT + INNER + FRAME + 4;
  const HEIGHT = TOP + INNER + FRAME + LABELS;
  // The notation's directions as (columns, rows) steps, north towards row 5: for drawing arrows.
  const DIRECTIONS = {
    n: [0, 1], ne: [1, 1], e: [1, 0], se: [1, -1], s: [0, -1], sw: [-1, -1], w: [-1, 0], nw: [-1, 1],
  };

  const svg = App.svg;

  function squareAt(name) {
    if (typeof name !== "string" || !/^[a-e][1-5]$/.test(name)) return null;
    return { column: COLUMNS.indexOf(name[0]), row: Number(name[1]) - 1 };
  }

  const squareName = (column, row) => `${COLUMNS[column]}${row + 1}`;
  const xOf = (column) => LEFT + column * PITCH;
  const yOf = (row) => TOP + (SIZE - 1 - row) * PITCH;

  function centre(name) {
    const at = squareAt(name);
    return { x: xOf(at.column) + SQUARE / 2, y: yOf(at.row) + SQUARE / 2 };
  }

  // "c1-ne" -> {origin: "c1", direction: "ne"}; null for "pass" or anything else.
  function parseMove(move) {
    const found = /^([a-e][1-5])-(n|ne|e|se|s|sw|w|nw)$/.exec(move || "");
    return found ? { origin: found[1], direction: found[2] } : null;
  }

  function bearPicture(cx, cy, resting) {
    const eyes = resting
      ? [svg("path", { class: "esk-bear-eye-closed", d: `M${cx - 12} ${cy - 5} q3 3 6 0 M${cx + 6} ${cy - 5} q3 3 6 0` })]
      : [svg("circle", { class: "esk-bear-eye", cx: cx - 9, cy: cy - 5, r: 3 }),
        svg("circle", { class: "esk-bear-eye", cx: cx + 9, cy: cy - 5, r: 3 })];
    return [
      svg("circle", { class: "esk-bear-ear", cx: cx - 18, cy: cy - 19, r: 9 }),
      svg("circle", { class: "esk-bear-ear", cx: cx + 18, cy: cy - 19, r: 9 }),
      svg("circle", { class: "esk-bear-ear-inner", cx: cx - 18, cy: cy - 19, r: 4.5 }),
      svg("circle", { class: "esk-bear-ear-inner", cx: cx + 18, cy: cy - 19, r: 4.5 }),
      svg("circle", { class: "esk-bear-head", cx, cy, r: 27 }),
      ...eyes,
      svg("ellipse", { class: "esk-bear-snout", cx, cy: cy + 9, rx: 12, ry: 9 }),
      svg("ellipse", { class: "esk-bear-nose", cx, cy: cy + 5, rx: 5, ry: 3.5 }),
      svg("path", { class: "esk-bear-mouth", d: `M${cx} ${cy + 8} v4 M${cx - 4} ${cy + 13} q4 3 8 0` }),
    ];
  }

  App.boards.eskimo = {
    title: gettext("Eskimo"),
    create(container, ctx) {
      let state = null;
      let view = { legalMoves: [], myTurn: false, mySeat: null, players: [] };
      let selected = null; // origin square whose moves are offered
      let hoverSquare = null;
      let hoverMove = null;
      let cursor = null; // square name of the keyboard's cursor; null until a key moves it
      let focused = false;

      const squares = new Map();
      const board = svg("svg", {
        class: "esk-board", viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: ctx.readonly ? "img" : "application",
        "aria-label": ctx.readonly ? gettext("Eskimo board")
          : gettext("Eskimo board: arrows move the cursor, Enter picks a piece or the bear, then Enter on a marked square moves it"),
        tabindex: ctx.readonly ? null : "0",
      });
      const squareLayer = svg("g", { class: "esk-squares" });
      const pieceLayer = svg("g", { class: "esk-pieces" }); // pointer passes through to the squares
      const offerLayer = svg("g", { class: "esk-offers" }); // arrows and destination markers: clickable
      board.append(
        svg("rect", { class: "esk-frame", x: LABELS, y: 4, width: INNER + 2 * FRAME, height: INNER + 2 * FRAME, rx: 14 }),
        squareLayer, pieceLayer, offerLayer,
      );
      for (let row = 0; row < SIZE; row++) {
        for (let column = 0; column < SIZE; column++) {
          const name = squareName(column, row);
          const rect = svg("rect", {
            class: "esk-square", x: xOf(column), y: yOf(row), width: SQUARE, height: SQUARE, rx: 6, dataset: { square: name },
          });
          squares.set(name, rect);
          squareLayer.append(rect);
        }
      }
      for (let i = 0; i < SIZE; i++) {
        board.append(
          svg("text", { class: "esk-label", x: xOf(i) + SQUARE / 2, y: TOP + INNER + FRAME + LABELS / 2 + 2, text: COLUMNS[i] }),
          svg("text", { class: "esk-label", x: LABELS / 2, y: yOf(i) + SQUARE / 2, text: String(i + 1) }),
        );
      }

      const players = App.el("ol", { class: "esk-players", "aria-label": gettext("Players") });
      const bearNote = App.el("p", { class: "esk-bear-note" });
      const turnLine = App.el("p", { class: "esk-turns muted" });
      const lastLine = App.el("p", { class: "esk-last muted" });
      const hint = App.el("p", { class: "esk-hint" });
      const passButton = App.el("button", { type: "button", class: "esk-pass", hidden: true }, gettext("Pass"));
      // The keys' names are the keys (never translated); the words around them are.
      const keys = App.el("p", { class: "esk-keys muted", hidden: true }, ...App.sentence(
        gettext("Keys: %(arrows)s cursor, %(enter)s pick or move, %(esc)s drop the pick."),
        { arrows: App.el("kbd", {}, "←↑→↓"), enter: App.el("kbd", {}, "Enter"), esc: App.el("kbd", {}, "Esc") }));
      const panel = App.el("div", { class: "esk-panel" }, players, bearNote, turnLine, lastLine, hint, keys, passButton);
      container.replaceChildren(App.el("div", { class: "esk-layout" }, App.el("div", { class: "esk-board-wrap" }, board), panel));

      function legal() {
        return !ctx.readonly && view.myTurn ? view.legalMoves || [] : [];
      }

      // Who is to move: the room page passes the match, which knows of
      // resignations the engine's state never hears of; the replay does not.
      function toMoveNow() {
        if (view.match && Array.isArray(view.match.to_move)) return view.match.to_move;
        return state.to_move || [];
      }

      // origin square -> [{move, direction, destination}] for my legal moves.
      function offers() {
        const byOrigin = new Map();
        const destinations = state.destinations || {};
        for (const move of legal()) {
          const parsed = parseMove(move);
          if (!parsed || !squareAt(destinations[move])) continue;
          if (!byOrigin.has(parsed.origin)) byOrigin.set(parsed.origin, []);
          byOrigin.get(parsed.origin).push({ move, direction: parsed.direction, destination: destinations[move] });
        }
        return byOrigin;
      }

      function occupant() {
        const at = new Map();
        state.pieces.forEach((side, seat) => side.forEach((name) => at.set(name, `piece-${seat}`)));
        at.set(state.bear, "bear");
        return at;
      }

      // Where the last move ended, for its highlight only: the slid piece (or
      // the bear) is the first thing met from the origin in that direction,
      // since it stopped there and the squares it crossed are still empty.
      function lastMovePlaces() {
        const parsed = parseMove(state.last_move);
        if (!parsed) return null;
        const taken = occupant();
        const [dc, dr] = DIRECTIONS[parsed.direction];
        let { column, row } = squareAt(parsed.origin);
        for (let k = 0; k < SIZE; k++) {
          column += dc;
          row += dr;
          if (column < 0 || row < 0 || column >= SIZE || row >= SIZE) return { from: parsed.origin, to: null };
          const name = squareName(column, row);
          if (taken.has(name)) return { from: parsed.origin, to: name };
        }
        return { from: parsed.origin, to: null };
      }

      function nameOf(seat) {
        const player = (view.players || []).find((p) => p.seat === seat);
        return player ? `${App.playerName(player)} (P${seat + 1})` : `P${seat + 1}`;
      }

      function paintPanel() {
        const toMove = toMoveNow();
        players.replaceChildren(...state.pieces.map((side, seat) => {
          const mine = seat === view.mySeat;
          return App.el("li", {
            class: `esk-player${mine ? " mine" : ""}${toMove.includes(seat) ? " to-move" : ""}`,
            dataset: { seat, toMove: toMove.includes(seat) ? "yes" : "no" },
          },
          App.el("span", { class: `swatch swatch-${seat}` }),
          App.el("span", { class: "esk-name" }, nameOf(seat), mine ? App.el("span", { class: "esk-you" }, gettext(" (you)")) : null),
          toMove.includes(seat) ? App.el("span", { class: "esk-tag" }, gettext("to move")) : null,
          // A person who resigned or left (the game ended with it).
          App.seatNote((view.players || []).find((p) => p.seat === seat) || { seat }, view.match),
          state.winner === seat ? App.el("span", { class: "esk-tag won" }, gettext("trapped the bear")) : null,
          App.el("span", { class: "esk-where muted" }, interpolate(gettext("starts on row %(row)s"), { row: seat === 0 ? 1 : 5 }, true)));
        }));
        const rest = state.cooldown;
        const over = toMove.length === 0;
        bearNote.dataset.cooldown = rest;
        bearNote.classList.toggle("resting", rest > 0 && !over);
        if (state.winner !== null && state.winner !== undefined) {
          bearNote.textContent = interpolate(gettext("The bear is trapped on %(square)s."), { square: state.bear }, true);
        } else if (over) bearNote.textContent = gettext("The game is over.");
        else if (rest > 0) bearNote.textContent = interpolate(ngettext("The bear rests for %(count)s more turn", "The bear rests for %(count)s more turns", rest), { count: rest }, true);
        else bearNote.textContent = gettext("The bear is awake: either player may move it one square.");
        turnLine.textContent = over
          ? interpolate(ngettext("%(count)s move played", "%(count)s moves played", state.turn), { count: state.turn }, true)
          : interpolate(gettext("Turn %(turn)s of at most %(limit)s"), { turn: state.turn + 1, limit: state.turn_limit }, true);
        lastLine.textContent = state.last_move ? interpolate(gettext("Last move: %(move)s"), { move: state.last_move }, true) : gettext("No moves yet.");
        lastLine.dataset.lastMove = state.last_move || "";
        const moves = legal();
        if (moves.includes("pass")) hint.textContent = gettext("You have no legal move: pass.");
        else if (!moves.length) hint.textContent = "";
        else if (selected) hint.textContent = gettext("Click an arrow or a marked square to move; click the piece again to cancel.");
        else hint.textContent = gettext("Your turn: click one of your pieces, or the bear if it is awake.");
        hint.hidden = !moves.length;
        keys.hidden = !moves.length || moves.includes("pass");
        passButton.hidden = !moves.includes("pass");
      }

      function paint() {
        if (!state) return;
        const byOrigin = offers();
        if (selected && !byOrigin.has(selected)) selected = null;
        // A selection shows its moves; without one, hovering a piece that can move previews them.
        const shown = selected || (byOrigin.has(hoverSquare) ? hoverSquare : null);
        const shownMoves = shown ? byOrigin.get(shown) : [];
        const hovered = shownMoves.find((o) => o.move === hoverMove)
          || (selected ? shownMoves.find((o) => o.destination === hoverSquare) : null);
        const last = lastMovePlaces();
        const destinations = new Set(shownMoves.map((o) => o.destination));
        for (const [name, rect] of squares) {
          const classes = ["esk-square"];
          const at = squareAt(name);
          if ((at.column + at.row) % 2) classes.push("alt");
          if (byOrigin.has(name)) classes.push("movable");
          if (name === selected) classes.push("selected");
          if (destinations.has(name)) classes.push(selected ? "offered" : "previewed");
          if (hovered && hovered.destination === name) classes.push("target");
          if (last && last.from === name) classes.push("last-from");
          if (last && last.to === name) classes.push("last-to");
          rect.setAttribute("class", classes.join(" "));
          const ending = selected ? shownMoves.find((o) => o.destination === name) : null;
          if (ending) {
            rect.dataset.move = ending.move;
            rect.dataset.destination = name;
          } else {
            delete rect.dataset.move;
            delete rect.dataset.destination;
          }
        }
        board.classList.toggle("my-turn", byOrigin.size > 0);

        const drawn = [];
        for (const offer of shownMoves) {
          const a = centre(shown);
          const b = centre(offer.destination);
          // A picked piece shows each slide's path; a hovered one just dots where it could go.
          drawn.push(selected
            ? svg("line", { class: `esk-path${hovered === offer ? " hot" : ""}`, x1: a.x, y1: a.y, x2: b.x, y2: b.y })
            : svg("circle", { class: "esk-dot", cx: b.x, cy: b.y, r: 7 }));
        }
        if (last && last.to) {
          const a = centre(last.from);
          const b = centre(last.to);
          drawn.push(svg("line", { class: "esk-last-path", x1: a.x, y1: a.y, x2: b.x, y2: b.y }));
        }
        state.pieces.forEach((side, seat) => side.forEach((name) => {
          const { x, y } = centre(name);
          drawn.push(svg("g", { class: `esk-piece${name === selected ? " lifted" : ""}`, dataset: { piece: seat, at: name } },
            svg("circle", { class: `esk-piece-body esk-seat-${seat}`, cx: x, cy: y, r: 25 }),
            svg("circle", { class: "esk-piece-rim", cx: x, cy: y, r: 17 }),
            svg("circle", { class: "esk-piece-shine", cx: x - 7, cy: y - 8, r: 6 })));
        }));
        const bear = centre(state.bear);
        const resting = state.cooldown > 0 && toMoveNow().length > 0;
        drawn.push(svg("g", {
          class: `esk-bear${resting ? " resting" : ""}${state.bear === selected ? " lifted" : ""}`,
          dataset: { bear: "", at: state.bear, cooldown: state.cooldown },
        },
        ...bearPicture(bear.x, bear.y, resting),
        resting ? svg("g", { class: "esk-bear-badge" },
          svg("circle", { cx: bear.x + 24, cy: bear.y - 24, r: 11 }),
          svg("text", { x: bear.x + 24, y: bear.y - 23, text: String(state.cooldown) })) : null));
        if (hovered) {
          const { x, y } = centre(hovered.destination);
          drawn.push(shown === state.bear
            ? svg("circle", { class: "esk-ghost bear", cx: x, cy: y, r: 26 })
            : svg("circle", { class: `esk-ghost esk-seat-${view.mySeat}`, cx: x, cy: y, r: 25 }));
        }

        // Only a selection's moves are clickable: arrows around it, and the
        // squares where they end (marked here, clicked through to the square).
        const clickable = [];
        if (selected) {
          const from = centre(selected);
          for (const offer of shownMoves) {
            const to = centre(offer.destination);
            drawn.push(svg("circle", { class: `esk-dest${hovered === offer ? " hot" : ""}`, cx: to.x, cy: to.y, r: 20 }));
            const [dc, dr] = DIRECTIONS[offer.direction];
            const x = from.x + dc * PITCH / 2;
            const y = from.y - dr * PITCH / 2;
            const angle = (Math.atan2(-dr, dc) * 180) / Math.PI;
            clickable.push(svg("g", {
              class: `esk-arrow${hovered === offer ? " hot" : ""}`, transform: `translate(${x} ${y})`,
              dataset: { move: offer.move, destination: offer.destination },
            },
            svg("circle", { r: 13 }),
            svg("path", { d: "M-5 -7 L7 0 L-5 7 Z", transform: `rotate(${angle})` })));
          }
        }
        // The keyboard's cursor, while the board has the focus.
        if (focused && cursor) {
          const at = squareAt(cursor);
          drawn.push(svg("rect", {
            class: "esk-cursor", x: xOf(at.column) - 3, y: yOf(at.row) - 3, width: SQUARE + 6, height: SQUARE + 6, rx: 9,
            dataset: { cursor },
          }));
        }
        pieceLayer.replaceChildren(...drawn);
        offerLayer.replaceChildren(...clickable);
        paintPanel();
      }

      // The first key starts the cursor on a square that can move (or the middle).
      function startCursor() {
        const movable = [...offers().keys()].sort();
        return movable[0] || "c3";
      }

      board.addEventListener("keydown", (event) => {
        if (ctx.readonly || !state) return;
        const steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] };
        const key = event.key;
        if (steps[key]) {
          if (!cursor) cursor = startCursor();
          else {
            const at = squareAt(cursor);
            cursor = squareName(Math.max(0, Math.min(SIZE - 1, at.column + steps[key][0])),
              Math.max(0, Math.min(SIZE - 1, at.row + steps[key][1])));
          }
        } else if (key === "Enter" || key === " ") {
          if (!cursor) { cursor = startCursor(); }
          else {
            const byOrigin = offers();
            const ending = selected ? (byOrigin.get(selected) || []).find((o) => o.destination === cursor) : null;
            if (ending && legal().includes(ending.move)) {
              selected = null;
              ctx.play(ending.move);
            } else {
              selected = byOrigin.has(cursor) && cursor !== selected ? cursor : null;
            }
          }
        } else if (key === "Escape") {
          selected = null;
        } else {
          return;
        }
        event.preventDefault();
        hoverSquare = cursor;
        hoverMove = null;
        paint();
      });
      board.addEventListener("focus", () => { focused = true; if (cursor) paint(); });
      board.addEventListener("blur", () => { focused = false; paint(); });

      board.addEventListener("mouseover", (event) => {
        const offer = event.target.closest("[data-move]");
        const square = event.target.closest("[data-square]");
        const move = offer ? offer.dataset.move : null;
        const name = square ? square.dataset.square : null;
        if (move === hoverMove && name === hoverSquare) return;
        hoverMove = move;
        hoverSquare = name;
        paint();
      });
      board.addEventListener("mouseleave", () => {
        hoverMove = null;
        hoverSquare = null;
        paint();
      });
      board.addEventListener("click", (event) => {
        const moves = legal();
        if (!moves.length) return;
        const offer = event.target.closest("[data-move]");
        if (offer) {
          if (moves.includes(offer.dataset.move)) { selected = null; ctx.play(offer.dataset.move); }
          return;
        }
        const square = event.target.closest("[data-square]");
        if (!square) return;
        const name = square.dataset.square;
        const byOrigin = offers();
        selected = byOrigin.has(name) && name !== selected ? name : null;
        paint();
      });
      document.addEventListener("keydown", (event) => {
        if (event.key === "Escape" && selected) { selected = null; paint(); }
      });
      passButton.addEventListener("click", () => { if (legal().includes("pass")) ctx.play("pass"); });

      return {
        render(newState, newView) {
          state = newState;
          view = newView;
          if (!legal().length) selected = null;
          paint();
        },
      };
    },
  };
})();
