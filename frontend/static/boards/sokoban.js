// Sokoban board: the level drawn with CSS, a status panel (level, move and
// push counters, the current path), on-screen keys, and the solver panel.
// It knows no rules: a key does something only if the server lists the
// matching move in legalMoves ("u" a step, "U" a push, "undo", "reset").
//
// Keys: arrows or W A S D move, Z undoes, R resets, Shift+S asks the solver
// (a plain S is WASD's "down"), N starts the next level after a solve, Esc
// cancels the solver or stops its playback. Keys are ignored while typing in
// a field (the chat) and with Ctrl, Alt or Meta held (browser shortcuts).
//
// What tests (and people) can find on it:
//   .sk-cell[data-x][data-y]      every cell; data-kind wall|floor|outside,
//                                 data-goal, data-box, data-player when so
//   [data-testid=sokoban-moves|sokoban-pushes|sokoban-path|sokoban-title]
//   .sk-solver[data-phase]        idle | working | playing | done | failed
//   [data-testid=sokoban-progress]  positions searched so far
//   [data-testid=sokoban-remaining] the solution's moves still to play
//   .sk[data-solved="yes"]        and the "Solved!" panel
"use strict";

(() => {
  const el = App.el;
  const STEPS = { l: [-1, 0], u: [0, -1], r: [1, 0], d: [0, 1] };
  const ALGORITHMS = [
    ["best", gettext("Best (default)"), gettext("the strongest: push-optimal A* if it finishes in time, then a greedy search")],
    ["astar", "A*", gettext("A* over pushes: push-optimal")],
    ["greedy", gettext("Greedy"), gettext("greedy best-first: fast, not optimal")],
    ["bfs", gettext("Breadth-first"), gettext("breadth-first over pushes: push-optimal, slow")],
    ["dfs", gettext("Depth-first"), gettext("depth-first: some solution, usually a long one")],
  ];
  // Solution playback: a few steps a second, slow enough to follow.
  const STEP_MS = 220;
  const POLL_MS = 1000; // the solve's REST fallback when pushes do not come
  const MAX_QUEUED = 6; // keys typed ahead while a move is on its way
  const TERMINAL = new Set(["done", "cancelled", "failed"]);
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const number = (n) => Number(n || 0).toLocaleString(App.language);
  const seconds = (n, digits) => interpolate(gettext("%(seconds)s s"), { seconds: Number(n || 0).toFixed(digits) }, true);

  function keyAction(event) {
    const key = event.key;
    const arrows = { ArrowLeft: "l", ArrowUp: "u", ArrowRight: "r", ArrowDown: "d" };
    if (arrows[key]) return arrows[key];
    if (key === "Escape") return "cancel";
    const letter = key.length === 1 ? key.toLowerCase() : "";
    // S is both WASD's "down" and the solver's key: Shift tells them apart.
    if (letter === "s") return event.shiftKey ? "solve" : "d";
    return { a: "l", w: "u", d: "r", z: "undo", r: "reset", n: "next" }[letter] || null;
  }

  function typing(target) {
    return Boolean(target && target.closest && target.closest("input, textarea, select, [contenteditable]"));
  }

  App.boards.sokoban = {
    title: gettext("Sokoban"),
    create(container, ctx) {
      let state = null;
      let view = { legalMoves: [], myTurn: false };
      let matchId = null;

      // ---- the picture -------------------------------------------------
      const grid = el("div", { class: "sk-grid", role: "img" });
      const sprites = el("div", { class: "sk-sprites", "aria-hidden": "true" });
      const solvedPanel = el("div", { class: "sk-solved", role: "status", hidden: true });
      const stage = el("div", { class: "sk-stage" }, el("div", { class: "sk-field" }, grid, sprites), solvedPanel);
      let cells = []; // cells[y][x]
      let layout = ""; // the level's walls and goals, to know when to rebuild
      let player = null; // the player's sprite
      let boxes = []; // box sprites, each with .x .y

      // ---- the status panel --------------------------------------------
      const title = el("span", { class: "sk-title", "data-testid": "sokoban-title" });
      const counter = (name, label, meaning) => el("div", { class: "sk-counter", title: meaning },
        el("span", { class: "sk-counter-label" }, label),
        el("span", { class: "sk-counter-value", "data-testid": `sokoban-${name}` }, "0"));
      const moves = counter("moves", gettext("Moves"), gettext("Every step you took, pushes and undone steps included; Reset sets it to 0"));
      const pushes = counter("pushes", gettext("Pushes"), gettext("Every time you moved a box, undone pushes included"));
      const goals = counter("goals", gettext("On goal"), gettext("Boxes standing on a goal, of all the boxes"));
      // The path is LURD notation, never translated; empty, it says so in words.
      const path = el("code", { class: "sk-path", "data-testid": "sokoban-path", dataset: { empty: gettext("at the start") } });
      // What the counters count, on screen: Undo takes a step back but not off the count.
      const meaning = el("p", { class: "sk-meaning muted", "data-testid": "sokoban-counter-meaning" },
        gettext("Moves and pushes count every step and push since the start or the last reset, undone ones included: "
          + "the level's score, lower is better. The path is the way from the start to here; undo shortens it."));
      const status = el("section", { class: "sk-panel sk-status" },
        el("div", { class: "sk-heading" }, title, el("a", { href: "/sokoban/", class: "sk-all" }, gettext("All levels"))),
        el("div", { class: "sk-counters" }, moves, pushes, goals), meaning,
        el("div", { class: "sk-label" }, gettext("Path")), path);

      // ---- keys on screen ----------------------------------------------
      const buttons = {};
      const key = (action, label, hint) => {
        buttons[action] = el("button", {
          type: "button", class: `sk-key sk-key-${action}`, title: hint, "aria-label": hint,
          "data-action": action, onclick: () => perform(action),
        }, label);
        return buttons[action];
      };
      const pad = el("div", { class: "sk-pad" },
        key("u", "▲", gettext("Up (↑ or W)")), key("l", "◀", gettext("Left (← or A)")),
        key("d", "▼", gettext("Down (↓ or S)")), key("r", "▶", gettext("Right (→ or D)")));
      const algorithm = el("select", { class: "sk-algorithm", "aria-label": gettext("Solver algorithm"), title: gettext("The search the solver runs") },
        ...ALGORITHMS.map(([value, label, about]) => el("option", { value, title: about }, label)));
      try { algorithm.value = localStorage.getItem("sokoban-algorithm") || "best"; } catch (e) { /* private mode */ }
      if (!algorithm.value) algorithm.value = "best";
      algorithm.addEventListener("change", () => {
        try { localStorage.setItem("sokoban-algorithm", algorithm.value); } catch (e) { /* private mode */ }
      });
      const controls = el("section", { class: "sk-panel sk-controls" }, pad,
        el("div", { class: "sk-edit" },
          key("undo", el("span", {}, gettext("Undo"), " ", el("kbd", {}, "Z")), gettext("Undo one move (Z)")),
          key("reset", el("span", {}, gettext("Reset"), " ", el("kbd", {}, "R")), gettext("Start the level again (R)"))));

      // ---- the solver --------------------------------------------------
      const solverStatus = el("p", { class: "sk-solver-status", "aria-live": "polite" });
      const progress = el("span", { class: "sk-progress", "data-testid": "sokoban-progress" }, "0");
      const elapsed = el("span", { class: "sk-elapsed" });
      const working = el("p", { class: "sk-working", hidden: true },
        el("span", { class: "sk-spinner", "aria-hidden": "true" }),
        el("span", {}, ...App.sentence(gettext("%(count)s positions searched"), { count: progress })), elapsed);
      const remaining = el("code", { class: "sk-remaining", "data-testid": "sokoban-remaining", dataset: { empty: gettext("all played") } });
      const remainingCount = el("span", { class: "sk-remaining-count" });
      const playback = el("div", { class: "sk-playback", hidden: true },
        el("div", { class: "sk-label" }, gettext("Solution still to play"), " ", remainingCount), remaining);
      const cancel = el("button", { type: "button", class: "sk-cancel secondary", hidden: true, onclick: () => perform("cancel") }, gettext("Cancel"));
      const solverPanel = el("section", { class: "sk-panel sk-solver", dataset: { phase: "idle" } },
        el("label", { class: "sk-label" }, gettext("Solver"), algorithm),
        key("solve", el("span", {}, gettext("Solve"), " ", el("kbd", {}, "Shift"), "+", el("kbd", {}, "S")),
          gettext("Ask the solver and play its solution (Shift+S)")),
        working, solverStatus, playback, cancel);
      const next = el("button", { type: "button", class: "sk-next", hidden: true, onclick: () => perform("next") },
        gettext("Next level"), " ", el("kbd", {}, "N"));
      const nextError = el("p", { class: "error", role: "alert", hidden: true });

      const side = el("div", { class: "sk-side" }, status);
      const help = el("p", { class: "sk-help muted" });
      if (!ctx.readonly) {
        side.append(controls, solverPanel, help);
        // The keys' names are the keys (never translated); the words around them are.
        help.append(...App.sentence(
          gettext("%(arrows)s or %(wasd)s move, %(z)s undo, %(r)s reset, %(shift)s+%(s)s solve, %(n)s next level, %(esc)s cancel."), {
            arrows: el("kbd", {}, "←↑→↓"), wasd: el("kbd", {}, "WASD"), z: el("kbd", {}, "Z"), r: el("kbd", {}, "R"),
            shift: el("kbd", {}, "Shift"), s: el("kbd", {}, "S"), n: el("kbd", {}, "N"), esc: el("kbd", {}, "Esc"),
          }));
      }
      const root = el("div", { class: `sk${ctx.readonly ? " readonly" : ""}`, dataset: { solved: "no" } }, stage, side);
      container.replaceChildren(root);

      // ---- drawing -----------------------------------------------------
      function build() {
        const rows = state.rows;
        cells = [];
        const nodes = [];
        grid.style.setProperty("--columns", state.width);
        for (let y = 0; y < state.height; y++) {
          cells.push([]);
          for (let x = 0; x < state.width; x++) {
            const symbol = rows[y][x] || " ";
            const kind = symbol === "#" ? "wall" : symbol === " " ? "outside" : "floor";
            const node = el("div", { class: `sk-cell sk-${kind}`, dataset: { x, y, kind } });
            if (".+*".includes(symbol)) { node.dataset.goal = ""; node.classList.add("sk-goal"); }
            if (kind === "wall") {
              // A wall's sides that face the floor are lit or shaded, so walls read as raised.
              const open = (dx, dy) => { const s = (rows[y + dy] || "")[x + dx]; return s !== undefined && s !== "#" && s !== " "; };
              if (open(0, -1)) node.classList.add("edge-top");
              if (open(0, 1)) node.classList.add("edge-bottom");
              if (open(-1, 0)) node.classList.add("edge-left");
              if (open(1, 0)) node.classList.add("edge-right");
            }
            cells[y].push(node);
            nodes.push(node);
          }
        }
        grid.replaceChildren(...nodes);
        player = el("div", { class: "sk-sprite sk-player" }, el("span", { class: "sk-eyes" }));
        boxes = state.boxes.map(([x, y]) => place(el("div", { class: "sk-sprite sk-box" }), x, y, false));
        sprites.replaceChildren(...boxes, player);
        place(player, state.player[0], state.player[1], false);
        fit();
      }

      function place(sprite, x, y, animate) {
        sprite.classList.toggle("instant", !animate);
        sprite.style.setProperty("--x", x);
        sprite.style.setProperty("--y", y);
        sprite.x = x;
        sprite.y = y;
        return sprite;
      }

      // Boxes keep their identity across a push, so a pushed box slides; after
      // an undo or reset several may jump, and those do not slide.
      function moveBoxes() {
        const wanted = new Map(state.boxes.map(([x, y]) => [`${x},${y}`, [x, y]]));
        const stray = [];
        for (const box of boxes) {
          const here = `${box.x},${box.y}`;
          if (wanted.has(here)) wanted.delete(here);
          else stray.push(box);
        }
        const targets = [...wanted.values()];
        stray.forEach((box, i) => {
          const [x, y] = targets[i];
          const near = Math.abs(x - box.x) + Math.abs(y - box.y) === 1;
          place(box, x, y, near && stray.length === 1);
        });
        const goalSet = new Set(state.goals.map(([x, y]) => `${x},${y}`));
        for (const box of boxes) box.classList.toggle("home", goalSet.has(`${box.x},${box.y}`));
      }

      function fit() {
        if (!state) return;
        // As large as the board area allows, within reason, and whole pixels so lines stay crisp.
        const wide = Math.max(200, stage.clientWidth - 24);
        const tall = Math.max(240, window.innerHeight - 260);
        const size = Math.floor(Math.min(wide / state.width, tall / state.height, 56));
        root.style.setProperty("--cell", `${Math.max(16, size)}px`);
      }
      window.addEventListener("resize", fit);

      function paint() {
        if (!state) return;
        const key = state.rows.map((row) => row.replace(/[@$]/g, "-").replace(/[+*]/g, ".")).join("\n");
        if (key !== layout) { layout = key; build(); }
        const [px, py] = state.player;
        const stepped = Math.abs(px - player.x) + Math.abs(py - player.y) === 1;
        if (px < player.x) player.dataset.facing = "l";
        else if (px > player.x) player.dataset.facing = "r";
        place(player, px, py, stepped);
        moveBoxes();
        const boxSet = new Set(state.boxes.map(([x, y]) => `${x},${y}`));
        for (const row of cells) {
          for (const node of row) {
            const here = `${node.dataset.x},${node.dataset.y}`;
            if (boxSet.has(here)) node.dataset.box = ""; else delete node.dataset.box;
            if (Number(node.dataset.x) === px && Number(node.dataset.y) === py) node.dataset.player = "";
            else delete node.dataset.player;
          }
        }
        grid.setAttribute("aria-label", interpolate(ngettext("%(level)s: %(count)s of %(boxes)s box on goals", "%(level)s: %(count)s of %(boxes)s boxes on goals", state.boxes.length),
          { level: state.title || gettext("Sokoban level"), count: state.boxes_on_goals, boxes: state.boxes.length }, true));

        title.textContent = state.title || gettext("Sokoban");
        moves.lastChild.textContent = state.moves;
        pushes.lastChild.textContent = state.pushes;
        goals.lastChild.textContent = `${state.boxes_on_goals} / ${state.boxes.length}`;
        path.textContent = state.path;
        path.title = state.path ? interpolate(ngettext("%(count)s move from the start", "%(count)s moves from the start", state.path.length), { count: state.path.length }, true) : "";
        path.scrollTop = path.scrollHeight; // a long path shows its newest moves
        root.dataset.solved = state.solved ? "yes" : "no";
        solvedPanel.hidden = !state.solved;
        if (state.solved) {
          // Played from the solver's answer (or typed in after it showed one): the server says so.
          const withSolver = Boolean(view.match && view.match.result && view.match.result.solver);
          solvedPanel.dataset.solver = withSolver ? "yes" : "no";
          solvedPanel.replaceChildren(
            el("strong", {}, withSolver ? gettext("Solved with the solver") : gettext("Solved!")),
            withSolver ? el("span", { class: "muted" }, gettext("not counted as your own solve or your best")) : null,
            el("span", {}, interpolate(gettext("%(moves)s moves · %(pushes)s pushes"), { moves: state.moves, pushes: state.pushes }, true)),
            ...(ctx.readonly ? [] : [next, nextError]));
        }
        next.hidden = !(state.solved && levelId());
        // Someone watching another player's level gets the picture, not the keys.
        const watching = view.mySeat === null || view.mySeat === undefined;
        controls.hidden = solverPanel.hidden = help.hidden = watching;
        paintControls();
      }

      function paintControls() {
        const locked = busy();
        for (const action of ["l", "u", "r", "d", "undo", "reset"]) {
          buttons[action].disabled = locked || !legal(action);
        }
        buttons.solve.disabled = locked || !canSolve();
        algorithm.disabled = locked;
        root.classList.toggle("locked", locked);
      }

      // ---- playing -----------------------------------------------------
      function legal(action) {
        if (ctx.readonly || !view.myTurn || !view.legalMoves) return null;
        if (STEPS[action]) return view.legalMoves.find((m) => m.length === 1 && m.toLowerCase() === action) || null;
        return view.legalMoves.includes(action) ? action : null;
      }

      function version() {
        return view.match ? `${view.match.id}:${view.match.version}` : null;
      }

      // Keys typed while a move is on its way wait their turn; each is checked
      // against the legal moves of the position it will be played in.
      const queue = [];
      let pumping = false;
      async function pump() {
        if (pumping) return;
        pumping = true;
        try {
          while (queue.length && !busy()) {
            const action = queue.shift();
            const letter = legal(action);
            if (!letter) { bump(action); continue; }
            const before = version();
            await ctx.play(letter);
            // The move was refused (the page shows why): drop what was typed after it.
            if (version() === before) queue.length = 0;
          }
        } finally {
          pumping = false;
        }
      }

      function bump(action) {
        if (!STEPS[action] || !player) return;
        player.dataset.bump = action;
        player.classList.remove("bumping");
        void player.offsetWidth; // restart the animation
        player.classList.add("bumping");
      }

      function perform(action) {
        if (ctx.readonly) return;
        if (action === "cancel") { cancelSolve(); return; }
        if (action === "next") { nextLevel(); return; }
        if (action === "solve") { startSolve(); return; }
        if (busy() || !state || state.solved) return;
        if (queue.length >= MAX_QUEUED) return;
        queue.push(action);
        pump();
      }

      if (!ctx.readonly) {
        document.addEventListener("keydown", (event) => {
          if (event.ctrlKey || event.altKey || event.metaKey || event.defaultPrevented) return;
          if (typing(event.target) || !container.isConnected || container.closest("[hidden]")) return;
          const action = keyAction(event);
          if (!action) return;
          event.preventDefault(); // arrows would scroll the page
          if (event.repeat && (action === "reset" || action === "solve" || action === "next")) return;
          perform(action);
        });
        // Clicking (or tapping) a square next to the player steps or pushes there.
        grid.addEventListener("click", (event) => {
          const cell = event.target.closest(".sk-cell");
          if (!cell || !state) return;
          const dx = Number(cell.dataset.x) - state.player[0];
          const dy = Number(cell.dataset.y) - state.player[1];
          const direction = Object.keys(STEPS).find((d) => STEPS[d][0] === dx && STEPS[d][1] === dy);
          if (direction) perform(direction);
        });
      }

      // ---- the solver --------------------------------------------------
      // phase: idle | working (the search runs) | playing (its answer plays)
      //        | done (a result was shown) | failed
      const solver = { phase: "idle", jobId: null, job: null, level: null, note: "", startedAt: 0, poll: null, stop: false };
      const seen = new Map(); // pushes that came before the POST's answer named the job

      function busy() {
        return solver.phase === "working" || solver.phase === "playing";
      }

      function levelId() {
        const options = view.room && view.room.options;
        return options && options.level_id ? Number(options.level_id) : 0;
      }

      function levelPayload() {
        const options = view.room && view.room.options;
        if (!options) return null;
        if (options.level_id) return { level_id: Number(options.level_id) };
        return options.level ? { level: options.level } : null;
      }

      function canSolve() {
        return !ctx.readonly && Boolean(state && !state.solved && view.myTurn && levelPayload());
      }

      function setPhase(phase, message) {
        solver.phase = phase;
        solverPanel.dataset.phase = phase;
        working.hidden = phase !== "working";
        playback.hidden = phase !== "playing";
        cancel.hidden = !busy();
        cancel.textContent = phase === "playing" ? gettext("Stop") : gettext("Cancel");
        if (message !== undefined) solverStatus.textContent = message;
        solverStatus.hidden = !solverStatus.textContent;
        if (phase !== "working" && solver.poll) { clearInterval(solver.poll); solver.poll = null; }
        paintControls();
      }

      async function startSolve() {
        if (busy() || !canSolve()) return;
        const payload = { ...levelPayload(), algorithm: algorithm.value };
        solver.note = "";
        queue.length = 0;
        solver.job = null;
        solver.jobId = null;
        solver.level = JSON.stringify(levelPayload());
        solver.startedAt = Date.now();
        progress.textContent = "0";
        setPhase("working", gettext("Asking the solver…"));
        let job;
        try {
          job = await App.api("POST", "/api/sokoban/solve/", payload);
        } catch (error) {
          const running = error.code === "solve_in_progress" && /[0-9a-f]{8}-[0-9a-f-]{27}/.exec(error.detail || "");
          if (!running) { setPhase("failed", error.detail || String(error)); return; }
          // A solve started earlier (another tab, before a reload) still runs:
          // follow it; its answer is played only if it is for this level.
          try {
            job = await App.api("GET", `/api/sokoban/solve/${running[0]}/`);
          } catch (again) {
            setPhase("failed", error.detail);
            return;
          }
          solver.level = JSON.stringify(job.level ? { level_id: job.level } : null);
          solver.note = gettext("Your earlier solve is still running.");
        }
        solver.jobId = job.id;
        takeJob(seen.get(job.id) || job);
        takeJob(job);
        seen.clear();
        if (solver.phase === "working") solver.poll = setInterval(pollJob, POLL_MS);
      }

      async function pollJob() {
        if (!solver.jobId || solver.phase !== "working") return;
        try {
          takeJob(await App.api("GET", `/api/sokoban/solve/${solver.jobId}/`));
        } catch (error) {
          if (error.status === 404) setPhase("failed", gettext("The solve is gone."));
        }
      }

      function newer(old, job) {
        if (!old) return job;
        if (TERMINAL.has(old.status)) return old;
        if (TERMINAL.has(job.status)) return job;
        return (job.expanded || 0) >= (old.expanded || 0) ? job : old;
      }

      function takeJob(job) {
        if (!job || !job.id) return;
        if (job.id !== solver.jobId) {
          // A push for a job whose id the POST has not told us yet (or an old one).
          if (solver.phase === "working" && !solver.jobId) seen.set(job.id, newer(seen.get(job.id), job));
          return;
        }
        if (solver.phase !== "working") return;
        solver.job = newer(solver.job, job);
        const current = solver.job;
        progress.textContent = number(current.expanded);
        elapsed.textContent = seconds((Date.now() - solver.startedAt) / 1000, 1);
        const note = solver.note ? `${solver.note} ` : "";
        if (current.status === "queued") solverStatus.textContent = note + gettext("Waiting for the solver to start…");
        else if (current.status === "running") {
          solverStatus.textContent = note + interpolate(gettext("Searching with %(algorithm)s…"), { algorithm: algorithmName(current.algorithm) }, true);
        }
        solverStatus.hidden = false;
        if (TERMINAL.has(current.status)) finish(current);
      }

      function algorithmName(value) {
        const found = ALGORITHMS.find(([v]) => v === value);
        return found && value !== "best" ? found[1] : gettext("the best search");
      }

      function finish(job) {
        const result = job.result || {};
        if (job.status === "cancelled") { setPhase("done", gettext("Cancelled.")); return; }
        if (job.status === "failed") {
          setPhase("failed", interpolate(gettext("The solver failed: %(error)s."), { error: job.error || gettext("no reason given") }, true));
          return;
        }
        const searched = interpolate(gettext("%(count)s positions searched in %(time)s"),
          { count: number(result.expanded ?? job.expanded), time: seconds(result.seconds, 2) }, true);
        if (!result.solved) {
          const why = {
            time_limit: interpolate(gettext("No solution within the time limit (%(time)s)"), { time: seconds(job.time_limit, 0) }, true),
            memory_limit: gettext("No solution within the memory limit"),
            unsolvable: gettext("The solver proved there is no solution"),
            cancelled: gettext("Cancelled"),
          }[result.status] || interpolate(gettext("Not solved (%(reason)s)"), { reason: result.status || gettext("no reason given") }, true);
          setPhase("done", interpolate(gettext("%(why)s; %(searched)s."), { why, searched }, true));
          return;
        }
        if (JSON.stringify(levelPayload()) !== solver.level) {
          setPhase("done", gettext("That solve was for another level; press Shift+S to solve this one."));
          return;
        }
        const found = interpolate(result.optimal
          ? gettext("Found %(moves)s moves, %(pushes)s pushes, push-optimal; %(searched)s.")
          : gettext("Found %(moves)s moves, %(pushes)s pushes; %(searched)s."), { moves: result.moves, pushes: result.pushes, searched }, true);
        playSolution(result.solution, found);
      }

      async function cancelSolve() {
        if (solver.phase === "playing") { solver.stop = true; return; }
        if (solver.phase !== "working") return;
        if (!solver.jobId) return; // the POST is on its way; Cancel again in a moment
        cancel.disabled = true;
        solverStatus.textContent = gettext("Cancelling…");
        try {
          takeJob(await App.api("POST", `/api/sokoban/solve/${solver.jobId}/cancel/`));
        } catch (error) {
          if (error.code === "solve_over") await pollJob();
          else solverStatus.textContent = error.detail || String(error);
        } finally {
          cancel.disabled = false;
        }
      }

      function showRemaining(solution, played) {
        const left = solution.slice(played);
        if (remaining.textContent === left && remainingCount.textContent) return;
        remaining.textContent = left;
        remainingCount.textContent = interpolate(gettext("(%(left)s of %(all)s)"), { left: left.length, all: solution.length }, true);
      }

      // How much of the solution the level's path has played so far.
      function playedOf(solution) {
        const path = state ? state.path : "";
        return path && solution.toLowerCase().startsWith(path.toLowerCase()) ? path.length : 0;
      }

      // The server plays the answer, one step a request: it picks each move
      // (going back to the level's start first) and logs it as the solver's,
      // so the solve is marked "solved with the solver", never as mine.
      async function playSolution(solution, found) {
        solver.stop = false;
        showRemaining(solution, 0);
        setPhase("playing", found);
        const match = matchId;
        const job = solver.jobId;
        let failed = ""; // why the playback stopped early, in words
        let stopped = false; // the player stopped it
        try {
          // A move typed just before the solve may still be on its way.
          while (pumping) await sleep(20);
          // The solution's moves, and a reset before them at most.
          for (let step = 0; !(state && state.solved); step++) {
            if (matchId !== match) throw new Error(gettext("a new game began"));
            if (solver.stop) { stopped = true; break; }
            if (step > solution.length + 1) throw new Error(gettext("the solution did not solve the level"));
            const started = Date.now();
            const before = version();
            await ctx.post(`/api/sokoban/solve/${job}/step/`, { match: view.match.id, version: view.match.version });
            if (version() === before) throw new Error(interpolate(gettext("move %(move)s was refused"), { move: playedOf(solution) + 1 }, true));
            showRemaining(solution, playedOf(solution));
            await sleep(Math.max(0, STEP_MS - (Date.now() - started)));
          }
        } catch (error) {
          failed = error.message;
        }
        if (stopped) setPhase("done", interpolate(gettext("%(found)s Playback stopped."), { found }, true));
        else if (failed) setPhase("failed", interpolate(gettext("%(found)s Playback stopped: %(why)s."), { found, why: failed }, true));
        else setPhase("done", found);
      }

      // ---- the next level ----------------------------------------------
      let leaving = false;
      async function nextLevel() {
        if (leaving || !state || !state.solved || !levelId()) return;
        leaving = true;
        next.disabled = true;
        App.showError(nextError, null);
        try {
          const level = await App.api("GET", `/api/sokoban/levels/${levelId()}/`);
          const following = await levelAfter(level);
          if (!following) {
            throw new Error(interpolate(gettext("%(level)s is the last level of %(collection)s."), { level: level.title, collection: level.collection }, true));
          }
          const room = await App.api("POST", "/api/rooms/", { game: "sokoban", options: { level_id: following.id } });
          location.href = `/rooms/${room.id}/`;
        } catch (error) {
          leaving = false;
          next.disabled = false;
          App.showError(nextError, error);
        }
      }

      // The level numbered after `level` in its collection (pages are in number order).
      async function levelAfter(level) {
        const base = `/api/sokoban/levels/?collection=${encodeURIComponent(level.collection)}`;
        const first = await App.api("GET", base);
        const size = first.results.length || 1;
        let page = first;
        const wanted = Math.floor(level.number / size) + 1;
        if (wanted > 1 && first.next) {
          try { page = await App.api("GET", `${base}&page=${wanted}`); } catch (error) { if (error.status !== 404) throw error; }
        }
        const after = (p) => p.results.find((l) => l.number > level.number);
        let found = after(page);
        if (!found && page.next) found = after(await App.api("GET", page.next));
        return found || null;
      }

      return {
        render(newState, newView) {
          state = newState;
          view = newView || { legalMoves: [], myTurn: false };
          const id = view.match ? view.match.id : null;
          if (id !== matchId) {
            // A new game (Play again): what the solver said was about the last one.
            if (matchId !== null && !busy()) setPhase("idle", "");
            matchId = id;
            queue.length = 0;
          }
          paint();
          if (!busy()) pump();
        },
        onMessage(message) {
          if (message && message.type === "solve") takeJob(message.job);
        },
      };
    },

    // The replay's review of a position: can it still be solved, and in how many pushes.
    analysis(container, entry) {
      const found = entry.analysis || {};
      let text;
      if (found.solvable === true) {
        text = interpolate(
          found.optimal ? ngettext("Solvable: %(pushes)s push left (proved the fewest).", "Solvable: %(pushes)s pushes left (proved the fewest).", found.pushes_left)
            : ngettext("Solvable: %(pushes)s push left by the solver's way.", "Solvable: %(pushes)s pushes left by the solver's way.", found.pushes_left),
          { pushes: found.pushes_left }, true,
        );
      } else if (found.solvable === false) {
        text = gettext("No longer solvable: a box is stuck for good.");
      } else {
        text = gettext("The solver could not tell in time whether this can still be solved.");
      }
      container.replaceChildren(App.el("p", { class: `sokoban-review ${found.solvable === false ? "lost" : ""}` }, text));
    },
  };
})();
