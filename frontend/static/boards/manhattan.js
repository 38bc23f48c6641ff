// Manhattan board: six cities of 3x3 building sites seen from South (city 1
// top left, city 6 bottom right), the seats' compass directions around them,
// a game log on the right, and my panel (hand, pieces, picks) below.
//
// It knows no rules. Everything it offers is a filter over view.legalMoves
// ("pick:111234", "5@3/2", "discard:5"); where a card of my hand builds comes
// from the engine's state.hand_sites, never from reading the card here.
//
// What tests (and people) can find on it:
//   .mh-city[data-city="3"]                       a city (clickable when offered)
//   .mh-site[data-city="3"][data-site="0,2"]      a site (row, column seen from South),
//                                                 with data-owner ("" when empty) and data-height
//   .mh-site .mh-storeys[data-seat][data-storeys]  the storeys each seat has there
//   .mh-site.hint                                 the sites of the card under the pointer
//   .mh-hand [data-card="5"]                      my cards; .selected when chosen
//   .mh-pieces [data-storey="2"]                  my picked pieces; .selected when chosen
//   .mh-pick [data-pick="2"], [data-action="pick"]  the pick tray and its button
//   [data-action="discard"]                       the house rule's discard button
//   .mh-log li[data-ply][data-made-by]            the game log, in words, newest last
//   .mh-clock                                     the time left for this turn
//   .mh-scores tr[data-round]                     points and totals after each round
//   .mh-final[data-testid=mh-final]               once the match is over: the result, each seat's
//                                                 place and final score ([data-seat][data-place][data-score])
//
// To build: click a card, a piece and a city in any order (or a card and then
// its site in a city); the move is sent once all three are chosen. A choice is
// offered only if some legal move has it together with what is already chosen.
//
// Its stylesheet, boards/manhattan.css, is linked by the room and replay
// templates ({% board_assets %}); the lobby and settings pages link it too, for
// the Manhattan menu and the settings form.
"use strict";

(() => {
  const el = App.el;
  // The sides of the board, seen from South.
  const COMPASS = ["North", "West", "East", "South"];
  const PLACE = /^(\d+)@(\d+)\/(\d+)$/;
  const PICK = /^pick:(\d+)$/;
  const DISCARD = /^discard:(\d+)$/;

  // The games' words the state carries as they are (a seat's direction, a
  // site's name: "North", "north-west"), in the page's language.
  const said = (word) => (word ? gettext(word) : "");

  // A piece drawn as a little tower of its storeys.
  function tower(storeys, seat) {
    return el("span", { class: `mh-tower seat-bg-${seat}`, "aria-hidden": "true" },
      ...Array.from({ length: storeys }, () => el("span", { class: "mh-floor" })));
  }

  // The legal moves, parsed into what the panels filter on.
  function parseMoves(moves) {
    const places = [];
    const picks = [];
    const discards = [];
    for (const move of moves || []) {
      let m = PLACE.exec(move);
      if (m) { places.push({ move, card: +m[1], city: +m[2], storey: +m[3] }); continue; }
      m = PICK.exec(move);
      if (m) {
        const counts = [0, 0, 0, 0, 0];
        for (const digit of m[1]) counts[+digit] += 1;
        picks.push({ move, counts, size: m[1].length });
        continue;
      }
      m = DISCARD.exec(move);
      if (m) discards.push({ move, card: +m[1] });
    }
    return { places, picks, discards };
  }

  App.boards.manhattan = {
    title: gettext("Manhattan"),
    create(container, ctx) {
      let state = null;
      let view = { legalMoves: [], myTurn: false, mySeat: null, players: [] };
      let moves = { places: [], picks: [], discards: [] };
      // What I have chosen so far this turn.
      let chosenCard = null;
      let chosenStorey = null;
      let chosenCity = null;
      let pickTray = [0, 0, 0, 0, 0]; // pieces put in the pick tray, counted by storeys
      let hoverCard = null;
      let seenVersion = null; // for the sounds: a new version is a turn that ended
      let seenRound = null;
      let seenPhase = null;
      let logFor = null; // "match:version" of the log on screen
      let logRequest = 0;
      let deadline = null;
      let previousBoard = null; // "storeys" of every site at the last paint, to mark what changed

      // --- the skeleton, built once ------------------------------------------
      const status = el("div", { class: "mh-status" });
      const final = el("section", { class: "mh-final", "data-testid": "mh-final", hidden: true });
      const sides = {};
      for (const direction of COMPASS) {
        sides[direction] = el("div", { class: `mh-side mh-side-${direction.toLowerCase()}`, dataset: { direction } });
      }
      const citiesNode = el("div", { class: "mh-cities", role: "group", "aria-label": gettext("The six cities") });
      const cityNodes = {};
      const siteNodes = {}; // "city:r,c" -> node
      for (let city = 1; city <= 6; city++) {
        const grid = el("div", { class: "mh-sites" });
        for (let r = 0; r < 3; r++) {
          for (let c = 0; c < 3; c++) {
            const site = el("div", { class: "mh-site", dataset: { city, site: `${r},${c}`, owner: "", height: 0 } },
              ...[0, 1, 2, 3].map((seat) => el("span", { class: `mh-storeys seat-${seat}`, dataset: { seat, storeys: 0 } })));
            siteNodes[`${city}:${r},${c}`] = site;
            grid.append(site);
          }
        }
        const node = el("div", { class: "mh-city", dataset: { city } },
          el("div", { class: "mh-city-name" }, interpolate(gettext("City %(city)s"), { city }, true), el("span", { class: "mh-city-note" })), grid);
        cityNodes[city] = node;
        citiesNode.append(node);
      }
      const table = el("div", { class: "mh-table" },
        sides.North, sides.West, citiesNode, sides.East, sides.South);
      const logList = el("ol", { class: "mh-log-list", "aria-live": "polite", dataset: { empty: gettext("Nothing has happened yet.") } });
      const log = el("aside", { class: "mh-log" }, el("h3", {}, gettext("Game log")), logList);
      const mine = el("section", { class: "mh-mine" });
      const players = el("section", { class: "mh-players" });
      const scores = el("section", { class: "mh-scores" });
      const root = el("div", { class: `mh${ctx.readonly ? " readonly" : ""}` },
        status,
        final,
        el("div", { class: "mh-main" }, table, log),
        mine,
        el("div", { class: "mh-lower" }, players, scores));
      container.replaceChildren(root);

      // --- helpers -------------------------------------------------------------
      function seatInfo(seat) { return state.seats[seat]; }
      // A seat's side of the table, in the page's language ("North", "북").
      function direction(seat) { return said(seatInfo(seat).direction); }
      function player(seat) { return (view.players || []).find((p) => p.seat === seat) || { seat }; }
      function nameOf(seat) {
        if (seat === view.mySeat) return gettext("you");
        const p = player(seat);
        return p.username || p.bot ? App.playerName(p) : direction(seat);
      }
      function who(seat) {
        return el("span", { class: "mh-who" }, el("span", { class: `swatch swatch-${seat}` }),
          el("b", {}, direction(seat)), el("span", { class: "muted" }, ` · ${nameOf(seat)}`));
      }
      // Over: the last round scored, or the match ended otherwise (everyone
      // resigned, a seat abandoned it). The replay says so only on its last ply.
      function over() {
        if (!state) return false;
        if (state.phase === "over") return true;
        const match = view.match;
        return Boolean(match && match.status !== "active" && (!ctx.readonly || view.last));
      }
      // Who is to move now: nobody once it is over, whatever the engine's position says.
      const toMoveNow = () => (over() ? [] : state.to_move);
      const canAct = () => !ctx.readonly && view.myTurn && state && !over();
      const placeMoves = () => (canAct() ? moves.places : []);
      const onlyDiscards = () => canAct() && moves.discards.length > 0 && moves.places.length === 0;

      function matching({ card = chosenCard, storey = chosenStorey, city = chosenCity } = {}) {
        return placeMoves().filter((m) => (card === null || m.card === card)
          && (storey === null || m.storey === storey) && (city === null || m.city === city));
      }
      function siteOf(card) {
        const site = state.hand_sites && state.hand_sites[String(card)];
        return site ? site : null;
      }

      function clearChoice() {
        chosenCard = chosenStorey = chosenCity = null;
      }

      // Drop choices that no legal move supports any more (a new state arrived).
      function keepValidChoice() {
        if (!canAct()) { clearChoice(); pickTray = [0, 0, 0, 0, 0]; return; }
        if (onlyDiscards()) {
          chosenStorey = chosenCity = null;
          if (!moves.discards.some((d) => d.card === chosenCard)) chosenCard = null;
          return;
        }
        if (chosenCard !== null && !matching({ storey: null, city: null }).length) chosenCard = null;
        if (chosenStorey !== null && !matching({ card: null, city: null }).length) chosenStorey = null;
        if (chosenCity !== null && !matching().length) chosenCity = null;
        if (state.phase !== "pick") pickTray = [0, 0, 0, 0, 0];
      }

      function trySend() {
        if (chosenCard === null || chosenCity === null) return;
        const found = matching();
        if (chosenStorey === null) {
          // Card then site: with one piece that fits there, that is the move.
          const storeys = new Set(found.map((m) => m.storey));
          if (storeys.size !== 1) return;
        }
        if (found.length !== 1) return;
        const move = found[0].move;
        clearChoice();
        ctx.play(move);
      }

      // --- painting ------------------------------------------------------------
      function paint() {
        if (!state) return;
        paintStatus();
        paintFinal();
        paintSides();
        paintCities();
        paintMine();
        paintPlayers();
        paintScores();
        tickClock();
        root.classList.toggle("my-turn", canAct());
      }

      function paintStatus() {
        const items = [el("span", { class: "mh-round", dataset: { round: state.round } },
          over() ? gettext("Game over") : interpolate(gettext("Round %(round)s of %(rounds)s"), { round: state.round, rounds: state.rounds }, true))];
        if (!over()) {
          items.push(el("span", { class: "mh-phase" }, state.phase === "pick" ? gettext("picking pieces") : gettext("building")));
          items.push(el("span", { class: "mh-start" }, ...App.sentence(gettext("start player %(seat)s"), { seat: who(state.start_player) })));
          const toMove = toMoveNow()[0];
          if (toMove !== undefined) {
            items.push(el("span", { class: "mh-to-move", dataset: { seat: toMove } },
              toMove === view.mySeat ? el("b", {}, gettext("your turn")) : App.sentence(gettext("to move: %(seat)s"), { seat: who(toMove) })));
          }
        }
        status.replaceChildren(...items);
      }

      // The end screen: the result in words, and every seat's place and final score.
      function paintFinal() {
        const match = view.match;
        final.hidden = !over();
        if (final.hidden) return;
        const result = (match && match.result) || {};
        const scores = result.scores || state.seats.map((s) => s.score);
        const places = result.places && result.places.length ? result.places
          : scores.map((score) => 1 + scores.filter((other) => other > score).length);
        const order = state.seats.map((s) => s.seat).sort((a, b) => places[a] - places[b] || a - b);
        const headline = match && match.result ? App.resultText(match, App.username)
          : interpolate(gettext("%(names)s won"), {
            names: App.listed(order.filter((seat) => places[seat] === 1).map((seat) => `${direction(seat)} (${nameOf(seat)})`)),
          }, true);
        final.replaceChildren(
          el("h3", {}, gettext("Final result")),
          el("p", { class: "mh-final-headline" }, headline),
          el("ol", { class: "mh-final-list" }, ...order.map((seat) => {
            const p = player(seat);
            return el("li", { class: `mh-final-seat${places[seat] === 1 ? " winner" : ""}`, dataset: { seat, place: places[seat], score: scores[seat] } },
              el("span", { class: "mh-place" }, `${places[seat]}.`),
              el("span", { class: `swatch swatch-${seat}` }), el("b", {}, direction(seat)), ` · ${nameOf(seat)} `,
              App.seatNote(p, match),
              el("span", { class: "mh-final-score" }, interpolate(gettext("%(points)s pts"), { points: scores[seat] }, true)),
              places[seat] === 1 ? el("span", { class: "mh-tag won" }, gettext("winner")) : null);
          })));
      }

      function paintSides() {
        for (const direction of COMPASS) {
          const seat = state.seats.findIndex((s) => s.direction === direction);
          const node = sides[direction];
          if (seat < 0) { node.replaceChildren(said(direction)); continue; }
          node.dataset.seat = seat;
          node.className = `mh-side mh-side-${direction.toLowerCase()} seat-edge-${seat}`
            + (toMoveNow().includes(seat) ? " to-move" : "") + (seat === view.mySeat ? " me" : "");
          node.replaceChildren(el("span", { class: "mh-side-label" },
            el("span", { class: `swatch swatch-${seat}` }), el("b", {}, said(direction)), ` ${nameOf(seat)}`));
        }
      }

      function paintCities() {
        const hint = hoverCard !== null ? siteOf(hoverCard) : null;
        const target = chosenCard !== null ? siteOf(chosenCard) : null;
        const offeredCities = new Set(chosenCard !== null ? matching({ city: null }).map((m) => m.city) : []);
        const changed = new Set();
        const now = {};
        for (const city of state.cities) {
          for (const row of city.sites) {
            for (const site of row) {
              const key = `${city.city}:${site.row},${site.column}`;
              now[key] = site.storeys.join(",");
              if (previousBoard && previousBoard[key] !== now[key]) changed.add(key);
            }
          }
        }
        previousBoard = now;
        for (const city of state.cities) {
          const cityNode = cityNodes[city.city];
          const offered = offeredCities.has(city.city);
          cityNode.classList.toggle("offered", offered);
          cityNode.classList.toggle("chosen", chosenCity === city.city);
          cityNode.classList.toggle("dimmed", chosenCard !== null && !offered);
          cityNode.setAttribute("role", offered ? "button" : "group");
          if (offered) cityNode.tabIndex = 0; else cityNode.removeAttribute("tabindex");
          cityNode.setAttribute("aria-label", interpolate(offered ? gettext("city %(city)s: build here") : gettext("city %(city)s"), { city: city.city }, true));
          let owned = [0, 0, 0, 0];
          for (const row of city.sites) {
            for (const site of row) {
              const key = `${city.city}:${site.row},${site.column}`;
              const node = siteNodes[key];
              if (site.owner !== null) owned[site.owner] += 1;
              const classes = ["mh-site"];
              if (site.owner !== null) classes.push(`owner-${site.owner}`);
              if (hint && hint.row === site.row && hint.column === site.column) classes.push("hint");
              if (target && target.row === site.row && target.column === site.column) {
                classes.push("target");
                if (offered) classes.push("offered");
              }
              if (changed.has(key)) classes.push("changed");
              node.className = classes.join(" ");
              node.dataset.owner = site.owner === null ? "" : site.owner;
              node.dataset.height = site.height;
              const parts = site.storeys.map((n, seat) => (n ? `${direction(seat)} ${n}` : null)).filter(Boolean);
              node.title = site.height
                ? interpolate(ngettext("City %(city)s, %(site)s site: %(count)s storey (%(storeys)s), owned by %(owner)s",
                  "City %(city)s, %(site)s site: %(count)s storeys (%(storeys)s), owned by %(owner)s", site.height),
                { city: city.city, site: said(site.name), count: site.height, storeys: parts.join(", "), owner: direction(site.owner) }, true)
                : interpolate(gettext("City %(city)s, %(site)s site: empty"), { city: city.city, site: said(site.name) }, true);
              site.storeys.forEach((n, seat) => {
                const cell = node.children[seat];
                cell.dataset.storeys = n;
                cell.textContent = n ? n : "";
              });
            }
          }
          // Who owns the most buildings here, for the +2.
          const most = Math.max(...owned);
          const leaders = owned.map((n, seat) => (n === most && n > 0 ? seat : null)).filter((s) => s !== null);
          const note = cityNode.querySelector(".mh-city-note");
          note.replaceChildren(...(leaders.length === 1
            ? [el("span", { class: `swatch swatch-${leaders[0]}`, title: interpolate(gettext("%(seat)s owns the most buildings here"), { seat: direction(leaders[0]) }, true) })]
            : []));
        }
      }

      function pieceButton(storey, index, { offered, selected, onClick, seat }) {
        return el("button", {
          type: "button",
          class: `mh-piece${selected ? " selected" : ""}${offered ? " offered" : ""}`,
          dataset: { storey, index },
          // Never "disabled": a disabled button gets no pointer events, and a
          // piece should still say what it is when it cannot be chosen.
          "aria-disabled": offered ? null : "true",
          title: interpolate(ngettext("%(count)s storey piece", "%(count)s storeys piece", storey), { count: storey }, true),
          "aria-pressed": selected ? "true" : "false",
          onclick: onClick,
        }, tower(storey, seat), el("span", { class: "mh-piece-n" }, storey));
      }

      function cardButton(card, index, { offered, selected, onClick }) {
        const site = siteOf(card);
        const grid = el("span", { class: "mh-card-grid", "aria-hidden": "true" });
        for (let r = 0; r < 3; r++) {
          for (let c = 0; c < 3; c++) {
            grid.append(el("span", { class: site && site.row === r && site.column === c ? "on" : "" }));
          }
        }
        return el("button", {
          type: "button",
          class: `mh-card${selected ? " selected" : ""}${offered ? " offered" : ""}`,
          dataset: { card, index },
          // aria-disabled, not disabled: the hover highlight must work on every card.
          "aria-disabled": offered ? null : "true",
          "aria-pressed": selected ? "true" : "false",
          title: site ? interpolate(gettext("Card %(card)s: builds on the %(site)s site of a city"), { card, site: said(site.name) }, true)
            : interpolate(gettext("Card %(card)s"), { card }, true),
          onclick: onClick,
          onmouseenter: () => { hoverCard = card; paintCities(); },
          onfocus: () => { hoverCard = card; paintCities(); },
          onmouseleave: () => { if (hoverCard === card) { hoverCard = null; paintCities(); } },
          onblur: () => { if (hoverCard === card) { hoverCard = null; paintCities(); } },
        }, el("span", { class: "mh-card-number" }, card), grid,
        el("span", { class: "mh-card-site" }, site ? said(site.name) : ""));
      }

      function remainingLine(info) {
        return el("span", { class: "mh-remaining" },
          ...[1, 2, 3, 4].map((n) => el("span", { class: "mh-count", dataset: { storeys: n, left: info.remaining[String(n)] } },
            tower(n, info.seat), `×${info.remaining[String(n)]}`)));
      }

      function prompt() {
        if (ctx.readonly) return "";
        if (over()) return gettext("The game is over.");
        const toMove = toMoveNow()[0];
        if (!view.myTurn) {
          if (toMove === undefined) return "";
          const doing = state.phase === "pick" ? gettext("%(seat)s, %(name)s, is picking pieces…") : gettext("%(seat)s, %(name)s, is building…");
          return interpolate(doing, { seat: direction(toMove), name: nameOf(toMove) }, true);
        }
        if (state.phase === "pick") {
          return interpolate(moves.picks.length === 1
            ? gettext("Round %(round)s: your last six pieces are all that is left; take them.")
            : gettext("Round %(round)s: pick six of your pieces to build with this round."), { round: state.round }, true);
        }
        if (onlyDiscards()) {
          return chosenCard === null
            ? gettext("No card, city and piece can be built: discard a card (you lose your smallest picked piece).")
            : interpolate(gettext("Discard card %(card)s?"), { card: chosenCard }, true);
        }
        const missing = [];
        if (chosenCard === null) missing.push(gettext("a card"));
        if (chosenStorey === null) missing.push(gettext("a piece"));
        if (chosenCity === null) missing.push(chosenCard === null ? gettext("a city") : gettext("a city (or its marked site)"));
        return interpolate(gettext("Build: choose %(what)s."), { what: App.listed(missing) }, true);
      }

      function paintMine() {
        const seat = view.mySeat;
        if (seat === null || seat === undefined || !state.seats[seat]) {
          mine.hidden = true;
          return;
        }
        mine.hidden = false;
        const info = seatInfo(seat);
        const act = canAct();
        const discarding = onlyDiscards();
        const building = act && state.phase === "build" && !discarding;
        // The hand.
        const hand = state.hand || [];
        const handCards = hand.map((card, index) => {
          let offered = false;
          if (building) offered = matching({ card, storey: null, city: null }).length > 0;
          if (discarding) offered = moves.discards.some((d) => d.card === card);
          const selected = chosenCard === card && hand.indexOf(card) === index;
          return cardButton(card, index, {
            offered, selected, onClick: () => {
              if (!offered) return;
              if (chosenCard === card) chosenCard = null;
              else {
                chosenCard = card;
                if (!discarding) {
                  if (chosenStorey !== null && !matching({ city: null }).length) chosenStorey = null;
                  if (chosenCity !== null && !matching().length) chosenCity = null;
                }
              }
              if (!discarding) trySend();
              paint();
            },
          });
        });
        // The picked pieces.
        const picked = info.picked || [];
        const pieceButtons = picked.map((storey, index) => {
          const offered = building && matching({ storey }).length > 0;
          const selected = chosenStorey === storey && picked.indexOf(storey) === index;
          return pieceButton(storey, index, {
            seat, offered, selected, onClick: () => {
              if (!offered) return;
              chosenStorey = chosenStorey === storey ? null : storey;
              trySend();
              paint();
            },
          });
        });
        const blocks = [
          el("div", { class: "mh-mine-head" },
            el("h3", {}, gettext("You: "), el("span", { class: `swatch swatch-${seat}` }), direction(seat)),
            el("p", { class: "mh-prompt", dataset: { testid: "mh-prompt" } }, prompt())),
          el("div", { class: "mh-hand-row" },
            el("div", { class: "mh-hand" }, el("h4", {}, gettext("Hand")),
              el("div", { class: "mh-cards" }, ...(handCards.length ? handCards : [el("span", { class: "muted" }, gettext("no cards"))]))),
            el("div", { class: "mh-pieces" }, el("h4", {}, interpolate(gettext("Picked for round %(round)s"), { round: state.round }, true)),
              el("div", { class: "mh-piece-row" }, ...(pieceButtons.length ? pieceButtons
                : [el("span", { class: "muted" }, state.phase === "pick" ? gettext("not picked yet") : gettext("all placed"))]))),
            el("div", { class: "mh-rest" }, el("h4", {}, gettext("Still to pick")), remainingLine(info),
              info.lost.length ? el("p", { class: "muted mh-lost" }, interpolate(gettext("lost: %(pieces)s"), { pieces: info.lost.join(", ") }, true)) : null)),
        ];
        if (act && state.phase === "pick") blocks.push(pickTrayNode(info));
        if (discarding && chosenCard !== null) {
          const move = moves.discards.find((d) => d.card === chosenCard);
          blocks.push(el("div", { class: "mh-actions" },
            el("button", { type: "button", class: "danger", dataset: { action: "discard" }, onclick: () => {
              clearChoice();
              ctx.play(move.move);
            } }, interpolate(gettext("Discard card %(card)s"), { card: chosenCard }, true))));
        }
        if (building && (chosenCard !== null || chosenStorey !== null)) {
          blocks.push(el("div", { class: "mh-actions" },
            el("button", { type: "button", class: "secondary", onclick: () => { clearChoice(); paint(); } }, gettext("Clear choice"))));
        }
        mine.replaceChildren(...blocks);
      }

      // The pick phase: put pieces in a tray; only trays some legal pick contains are possible.
      function pickTrayNode(info) {
        const forced = moves.picks.length === 1;
        if (forced) pickTray = moves.picks[0].counts.slice();
        const size = moves.picks.length ? moves.picks[0].size : 6;
        const inTray = pickTray.reduce((a, b) => a + b, 0);
        const fits = (counts) => moves.picks.some((p) => counts.every((n, storey) => n <= p.counts[storey]));
        const exact = moves.picks.find((p) => p.counts.every((n, storey) => n === pickTray[storey]));
        const adders = [1, 2, 3, 4].map((storey) => {
          const next = pickTray.slice();
          next[storey] += 1;
          const left = info.remaining[String(storey)] - pickTray[storey];
          const ok = !forced && inTray < size && fits(next);
          return el("button", {
            type: "button", class: "mh-pick-add", dataset: { pick: storey }, disabled: !ok,
            title: interpolate(gettext("Add a %(storeys)s-storey piece (%(left)s left)"), { storeys: storey, left }, true),
            onclick: () => { if (ok) { pickTray = next; paint(); } },
          }, tower(storey, info.seat), el("span", {}, `+${storey}`), el("span", { class: "muted mh-left" }, interpolate(gettext("%(left)s left"), { left }, true)));
        });
        const chosen = [];
        for (let storey = 1; storey <= 4; storey++) {
          for (let i = 0; i < pickTray[storey]; i++) {
            chosen.push(el("button", {
              type: "button", class: "mh-piece in-tray", dataset: { pickChosen: storey }, disabled: forced,
              title: interpolate(forced ? gettext("%(storeys)s-storey piece") : gettext("Take this %(storeys)s-storey piece out"), { storeys: storey }, true),
              onclick: () => { if (!forced) { pickTray[storey] -= 1; paint(); } },
            }, tower(storey, info.seat), el("span", { class: "mh-piece-n" }, storey)));
          }
        }
        for (let i = inTray; i < size; i++) chosen.push(el("span", { class: "mh-slot", "aria-hidden": "true" }));
        return el("div", { class: "mh-pick" },
          el("div", { class: "mh-pick-adders" }, ...adders),
          el("div", { class: "mh-tray", "aria-label": gettext("pieces picked") }, ...chosen),
          el("div", { class: "mh-actions" },
            el("button", {
              type: "button", dataset: { action: "pick" }, disabled: !exact,
              onclick: () => { if (exact) { pickTray = [0, 0, 0, 0, 0]; ctx.play(exact.move); } },
            }, forced ? gettext("Take the last six") : interpolate(gettext("Pick these %(count)s"), { count: size }, true)),
            forced ? null : el("button", {
              type: "button", class: "secondary", disabled: inTray === 0,
              onclick: () => { pickTray = [0, 0, 0, 0, 0]; paint(); },
            }, gettext("Empty the tray"))));
      }

      function paintPlayers() {
        const order = state.order && state.order.length ? state.order : state.seats.map((s) => s.seat);
        players.replaceChildren(el("h3", {}, gettext("Players, in order of play")), el("ol", { class: "mh-seat-list" },
          ...order.map((seat) => {
            const info = seatInfo(seat);
            const toMove = toMoveNow().includes(seat);
            const tags = [];
            if (seat === state.start_player && !over()) tags.push(el("span", { class: "mh-tag" }, gettext("start player")));
            if (toMove) tags.push(el("span", { class: "mh-tag go" }, gettext("to move")));
            // A person who resigned or left: the computer plays the seat on.
            const left = App.seatNote(player(seat), view.match);
            if (left) tags.push(left);
            if (toMove && deadline !== null && !ctx.readonly) {
              tags.push(el("span", { class: "mh-tag mh-clock", title: gettext("When the time runs out, a random legal move is made") }));
            }
            const p = player(seat);
            return el("li", { class: `mh-seat seat-edge-${seat}${toMove ? " to-move" : ""}${seat === view.mySeat ? " me" : ""}`, dataset: { seat } },
              el("div", { class: "mh-seat-head" }, el("span", { class: `swatch swatch-${seat}` }),
                el("b", {}, direction(seat)), el("span", { class: "mh-seat-name" }, seat === view.mySeat ? gettext("you") : App.playerName(p)),
                ...tags,
                el("span", { class: "mh-score", dataset: { score: info.score }, title: gettext("score") }, interpolate(gettext("%(points)s pts"), { points: info.score }, true))),
              el("div", { class: "mh-seat-detail" },
                el("span", { class: "mh-picked", title: gettext("picked for this round") },
                  ...(info.picked.length ? info.picked.map((n) => tower(n, seat)) : [el("span", { class: "muted" }, gettext("no pieces in play"))])),
                el("span", { class: "muted" },
                  "· ", interpolate(ngettext("%(count)s card", "%(count)s cards", info.hand_size), { count: info.hand_size }, true),
                  " · ", interpolate(ngettext("%(count)s building", "%(count)s buildings", info.buildings), { count: info.buildings }, true), " · ",
                  el("span", { title: gettext("what this seat would score if the round ended now") },
                    interpolate(gettext("+%(points)s now"), { points: info.points_if_round_ended_now }, true)))),
              el("div", { class: "mh-seat-detail" }, el("span", { class: "muted" }, gettext("to pick:")), remainingLine(info)));
          })));
      }

      function paintScores() {
        const seats = state.seats.map((s) => s.seat);
        const head = el("tr", {}, el("th", {}, gettext("After")), ...seats.map((seat) => el("th", { dataset: { seat } },
          el("span", { class: `swatch swatch-${seat}` }), direction(seat))));
        const rows = (state.after_rounds || []).map((r) => el("tr", { dataset: { round: r.round } },
          el("th", {}, interpolate(gettext("round %(round)s"), { round: r.round }, true)),
          ...seats.map((seat) => el("td", { dataset: { seat, points: r.points[seat], total: r.totals[seat] } },
            el("b", {}, r.totals[seat]), el("span", { class: "muted" }, ` (+${r.points[seat]})`)))));
        scores.replaceChildren(el("h3", {}, gettext("Scores after each round")),
          rows.length ? el("table", { class: "mh-score-table" }, el("thead", {}, head), el("tbody", {}, ...rows))
            : el("p", { class: "muted" }, gettext("Points are scored at the end of each round: +3 for the tallest building, +2 for the most buildings in a city, +1 per building.")));
      }

      // --- the clock -----------------------------------------------------------
      function tickClock() {
        const clock = players.querySelector(".mh-clock");
        if (!clock) return;
        if (deadline === null || ctx.readonly) { clock.hidden = true; return; }
        const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
        clock.hidden = false;
        clock.textContent = left > 0
          ? interpolate(gettext("%(time)s left"), { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` }, true)
          : gettext("time is up");
        clock.classList.toggle("urgent", left <= 10);
      }
      setInterval(tickClock, 1000);

      // --- the game log ----------------------------------------------------------
      async function loadLog(match, upTo) {
        // In a replay the log stops at the position shown (upTo = its ply).
        const key = `${match.id}:${match.version}:${upTo ?? ""}`;
        if (key === logFor) return;
        logFor = key;
        const request = ++logRequest;
        let entries;
        try {
          entries = await App.api("GET", `/api/matches/${match.id}/moves/`);
          if (upTo !== undefined) entries = entries.filter((m) => m.ply <= upTo);
        } catch (error) {
          if (request === logRequest) logFor = null; // try again at the next update
          return;
        }
        if (request !== logRequest) return;
        const atBottom = logList.scrollHeight - logList.scrollTop - logList.clientHeight < 40;
        logList.replaceChildren(...entries.map((m) => {
          const mark = m.made_by === "bot" ? el("span", { class: "mh-mark ai", title: gettext("made by the AI") }, gettext("AI"))
            : m.made_by === "timeout" ? el("span", { class: "mh-mark timeout", title: gettext("the time ran out: a random legal move was made") }, gettext("time out"))
              : null;
          return el("li", { dataset: { ply: m.ply, seat: m.seat, madeBy: m.made_by || "player" }, title: m.move },
            el("span", { class: "ply" }, `${m.ply}.`), el("span", { class: `swatch swatch-${m.seat}` }),
            el("span", { class: "mh-log-text" }, App.words(m.words, m.text) || m.move), mark);
        }));
        if (atBottom || entries.length) logList.scrollTop = logList.scrollHeight;
      }

      // --- the sounds: a turn ended, a round ended ----------------------------------
      function sound(match) {
        if (ctx.readonly || !match || !App.sound) return;
        const version = `${match.id}:${match.version}`;
        if (seenVersion !== null && version !== seenVersion && state.last_move) {
          const roundOver = state.phase === "over" ? seenPhase !== "over" : state.round !== seenRound;
          if (roundOver) App.sound.round(); else App.sound.turn();
        }
        seenVersion = version;
        seenRound = state.round;
        seenPhase = state.phase;
      }

      // --- input -------------------------------------------------------------------
      function chooseCity(city) {
        if (chosenCard === null || !canAct() || onlyDiscards()) return;
        if (!matching({ city }).length) return;
        chosenCity = city;
        trySend();
        paint();
      }
      citiesNode.addEventListener("click", (event) => {
        const node = event.target.closest(".mh-city");
        if (node) chooseCity(Number(node.dataset.city));
      });
      citiesNode.addEventListener("keydown", (event) => {
        const node = event.target.closest(".mh-city");
        if (node && (event.key === "Enter" || event.key === " ")) {
          event.preventDefault();
          chooseCity(Number(node.dataset.city));
        }
      });
      root.addEventListener("keydown", (event) => {
        if (event.key === "Escape" && (chosenCard !== null || chosenStorey !== null)) { clearChoice(); paint(); }
      });

      return {
        render(newState, newView) {
          state = newState;
          view = newView || view;
          moves = parseMoves(canAct() ? view.legalMoves : []);
          const match = view.match;
          deadline = match && match.status === "active" && match.turn_deadline ? Date.parse(match.turn_deadline) : null;
          keepValidChoice();
          if (hoverCard !== null && !(state.hand || []).includes(hoverCard)) hoverCard = null;
          sound(match);
          paint();
          if (match) loadLog(match, view.ply);
        },
      };
    },
  };
})();
