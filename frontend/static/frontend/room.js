// The room page: seats, chat, the live match and its board. Game-specific
// drawing is delegated to App.boards[slug] (static/boards/<slug>.js).
"use strict";

(() => {
  const root = document.getElementById("room");
  const roomId = Number(root.dataset.roomId);
  const game = root.dataset.game;
  const $ = (id) => document.getElementById(id);
  const me = App.username;

  let room = null;
  let match = null; // the newest match detail we have, as this viewer sees it
  let sending = false;
  let movesRequest = 0; // only the newest move-list answer is drawn

  const boardModule = App.boards[game];
  const title = boardModule.title || game;
  const board = boardModule.create($("board"), { play, post, readonly: false });
  $("board").hidden = true; // until there is a match to draw

  // A room's or a match's status as the pill shows it (its data-status keeps the API's word).
  const STATUS = {
    open: pgettext("room status", "open"),
    playing: pgettext("room status", "playing"),
    closed: pgettext("room status", "closed"),
    "game over": pgettext("room status", "game over"),
    aborted: pgettext("room status", "aborted"),
  };
  function showStatus(status) {
    $("room-status").textContent = STATUS[status] || status;
    $("room-status").dataset.status = status;
  }

  function mySeatInRoom() {
    return room ? room.seats.find((s) => s.username === me) : undefined;
  }

  // Alone at the table (Sokoban): no turns to announce, and resigning is leaving the level.
  function solo() {
    return Boolean(room && room.seats.length === 1);
  }

  // A seat is given back before the start, or between matches (it opens
  // again for anyone, and a rematch on offer lapses).
  function renderLeave() {
    const between = room.status === "playing" && match && match.id === room.match && match.status !== "active";
    $("leave").hidden = !mySeatInRoom() || !(room.status === "open" || between) || solo();
  }

  // Who watches: everyone sees how many; a spectator is told that is what they are doing.
  function renderWatchers() {
    const count = room.watchers || 0;
    const node = $("watchers");
    node.hidden = count === 0;
    node.dataset.count = count;
    node.textContent = interpolate(ngettext("%(count)s watching", "%(count)s watching", count), { count }, true);
    node.title = interpolate(ngettext("One person is watching this room", "%(count)s people are watching this room", count), { count }, true);
    const watching = !mySeatInRoom() && !(match && match.seat !== null);
    $("watching").hidden = !watching || room.status === "closed";
  }

  function renderRoom() {
    $("room-title").textContent = interpolate(gettext("%(game)s — room %(room)s"), { game: title, room: room.id }, true);
    $("room-code").textContent = room.code;
    const seated = Boolean(mySeatInRoom());
    const free = room.seats.some((s) => !s.username && !s.bot);
    $("join").hidden = seated || room.status !== "open" || !free;
    renderLeave();
    renderWatchers();
    $("start").hidden = !seated || room.host !== me || room.status !== "open" || !free;
    $("room-rated").hidden = !(room.options && room.options.rated);
    const level = room.options && room.options.ai ? App.levelName(room.options.ai) : "";
    if (room.seats.length > 2) {
      $("start").textContent = level
        ? interpolate(gettext("Start: the computer (%(level)s) takes the free seats"), { level }, true)
        : gettext("Start: the computer takes the free seats");
    } else {
      $("start").textContent = level ? interpolate(gettext("Play the computer (%(level)s)"), { level }, true) : gettext("Play the computer");
    }
    if (room.match && (!match || match.id !== room.match)) loadMatch(room.match).catch(showActionError);
    if (match) renderMatch();
    else renderWaiting();
  }

  // Before the first match: who is still missing, and how to bring them.
  function renderWaiting() {
    renderSeats();
    showStatus(room.status);
    const turn = $("turn");
    turn.dataset.myTurn = "no";
    if (room.status === "open") {
      waitingForSeats(turn);
    } else if (room.status === "closed") {
      turn.textContent = gettext("This room is closed.");
    } else {
      turn.textContent = "";
    }
    setTitle(false);
  }

  // The room is open: someone is missing (before the first match, or after a
  // player left between matches). Say whom it waits for and how to bring them.
  function waitingForSeats(turn) {
    const missing = room.seats.filter((s) => !s.username && !s.bot).length;
    const text = mySeatInRoom()
      ? ngettext("Waiting for an opponent to join. Share the room code %(code)s.",
        "Waiting for %(count)s more players to join. Share the room code %(code)s.", missing)
      : gettext("A seat is free: take it to play. Room code %(code)s.");
    turn.replaceChildren(...App.sentence(text, { count: String(missing), code: App.el("b", {}, room.code) }));
  }

  function renderSeats() {
    const list = $("seats");
    // During a match the seats are the match's players (seat 1 moves first);
    // before it, and while the table waits for someone after one, the room's chairs.
    const playing = match && !(room && room.status === "open");
    const rows = playing ? match.players : room ? room.seats : [];
    list.replaceChildren(...rows.map((p) => {
      const toMove = playing && match.status === "active" && match.to_move.includes(p.seat);
      return App.el("li", {
        class: `seat seat-${p.seat}${toMove ? " to-move" : ""}${p.username === me ? " mine" : ""}`,
        // What the stylesheet adds after my own seat: " (you)".
        dataset: p.username === me ? { seat: p.seat, you: gettext("you") } : { seat: p.seat },
      }, App.el("span", { class: `swatch swatch-${p.seat}` }), App.playerLabel(p),
      playing ? App.seatNote(p, match) : null, toMove ? gettext(" — to move") : "");
    }));
  }

  function setTitle(myTurn) {
    const base = room ? interpolate(gettext("%(game)s — room %(room)s"), { game: title, room: room.id }, true) : title;
    // The tab's title is the cue a player sees while looking at another tab.
    document.title = myTurn ? interpolate(gettext("● Your turn · %(title)s"), { title: base }, true) : base;
  }

  function renderMatch() {
    if (!match) return;
    const active = match.status === "active";
    const myTurn = active && match.seat !== null && match.to_move.includes(match.seat);
    $("board").hidden = false;
    board.render(match.state, {
      mySeat: match.seat,
      myTurn,
      legalMoves: myTurn ? match.legal_moves : [],
      players: match.players,
      // The whole detail and room, for boards with panels of their own
      // (Sokoban's solver and level picker, Manhattan's log and clocks).
      match,
      room,
    });
    const turn = $("turn");
    // Alone at the table (Sokoban) it is always your turn: no bar to say so.
    const alone = match.players.length === 1;
    turn.dataset.myTurn = myTurn && !alone ? "yes" : "no";
    if (active && alone) {
      turn.textContent = "";
    } else if (active) {
      const names = match.players.filter((p) => match.to_move.includes(p.seat)).map(App.playerName).join(", ");
      if (myTurn) turn.replaceChildren(App.el("span", { class: `swatch swatch-${match.seat}` }), gettext("Your turn"));
      else if (match.seat !== null) turn.textContent = interpolate(gettext("Waiting for %(names)s…"), { names }, true);
      else turn.textContent = interpolate(gettext("%(names)s to move"), { names }, true);
      if (match.turn_deadline) turn.append(App.el("span", { class: "clock", id: "turn-clock" }));
    } else if (room && room.status === "open" && match.id === room.match) {
      waitingForSeats(turn);
    } else {
      turn.textContent = "";
    }
    deadline = active && match.turn_deadline ? Date.parse(match.turn_deadline) : null;
    tickClock();
    setTitle(myTurn);
    // The room stays "playing" between a result and a rematch; say what the game is doing.
    // Open again after a match when someone left: the table waits for a player.
    const reopened = !active && room && room.status === "open" && match.id === room.match;
    const status = active ? "playing" : reopened ? "open" : match.status === "finished" ? "game over" : match.status;
    showStatus(status);
    const banner = $("banner");
    banner.hidden = active;
    // A rated result says what it did to each player's rating.
    banner.replaceChildren(...(active ? [] : [App.resultText(match, me), App.ratingChanges(match)].filter(Boolean)));
    banner.dataset.outcome = App.outcomeFor(match, me) || "";
    const mine = match.players.find((p) => p.seat === match.seat);
    $("resign").hidden = !active || match.seat === null || Boolean(mine && mine.resigned);
    // A puzzle played alone is not resigned but left.
    $("resign").textContent = solo() ? gettext("Leave level") : gettext("Resign");
    $("resign").title = solo() ? gettext("Stop playing this level; it stays unsolved") : gettext("Give up this game");
    renderClaim();
    renderRematch(active);
    renderWatchers();
    renderLeave();
    const replay = $("replay-link");
    replay.hidden = active;
    replay.href = `/matches/${match.id}/replay/`;
    renderSeats();
  }

  // After a match: offer a rematch, or answer the one on offer. It starts
  // when every person seated has accepted (AI seats always do).
  function renderRematch(active) {
    const offer = room && room.rematch;
    const seated = Boolean(mySeatInRoom());
    const open = Boolean(offer && offer.waiting_for);
    const iAccepted = open && offer.accepted.includes(me);
    const button = $("rematch");
    button.hidden = active || !seated || iAccepted || room.status !== "playing";
    button.textContent = open ? gettext("Accept rematch") : gettext("Play again");
    $("decline").hidden = active || !seated || !open || iAccepted;
    const line = $("rematch-offer");
    line.hidden = active || !offer;
    if (open) {
      line.textContent = iAccepted
        ? interpolate(gettext("Rematch offered: waiting for %(names)s to accept."), { names: App.listed(offer.waiting_for) }, true)
        : interpolate(gettext("%(name)s offers a rematch (accepted: %(names)s)."), { name: offer.offered_by, names: offer.accepted.join(gettext(", ")) }, true);
    } else if (offer && offer.declined_by) {
      line.textContent = interpolate(gettext("%(name)s declined the rematch."), { name: offer.declined_by }, true);
    }
  }

  // Untimed games: once the player to move has been away long enough
  // (claim_after), the others may claim. The time passes without a push, so
  // this runs again every second.
  function renderClaim() {
    const button = $("claim");
    const line = $("claim-offer");
    const active = match && match.status === "active";
    const absent = active && match.to_move.length ? match.players.find((p) => p.seat === match.to_move[0]) : null;
    const mine = match && match.players.find((p) => p.seat === match.seat);
    const may = Boolean(active && match.claim_after && absent && match.seat !== null && !match.to_move.includes(match.seat)
      && mine && !mine.resigned && Date.now() >= Date.parse(match.claim_after));
    button.hidden = !may;
    line.hidden = !may;
    if (!may) return;
    const name = App.playerName(absent);
    const two = match.players.length === 2;
    button.textContent = two ? gettext("Claim victory") : interpolate(gettext("Give %(name)s's seat to the computer"), { name }, true);
    line.textContent = interpolate(two
      ? gettext("%(name)s has been away on their turn for a while. You may claim the win, or wait for them.")
      : gettext("%(name)s has been away on their turn for a while. You may hand their seat to the computer so the game goes on."), { name }, true);
  }

  // The time left for the current turn, when the room has a turn limit.
  let deadline = null;
  function tickClock() {
    const clock = $("turn-clock");
    if (!clock || deadline === null) return;
    const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
    clock.textContent = left > 0
      ? interpolate(gettext("%(time)s left"), { time: `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` }, true)
      : gettext("time is up");
    clock.classList.toggle("urgent", left <= 10);
  }
  setInterval(() => { tickClock(); if (match) renderClaim(); }, 1000);

  async function loadMoves() {
    if (!match) return;
    const request = ++movesRequest;
    const moves = await App.api("GET", `/api/matches/${match.id}/moves/`);
    if (request !== movesRequest) return;
    const list = $("moves");
    // In words ("built a 2-storey piece on city 3"), whole; the notation is in the title.
    list.replaceChildren(...moves.map((m) => App.el("li", { dataset: { ply: m.ply, move: m.move, madeBy: m.made_by }, title: m.move },
      App.el("span", { class: "ply" }, `${m.ply}.`), App.el("span", { class: `swatch swatch-${m.seat}` }),
      App.el("span", { class: "move-text" }, App.words(m.words, m.text) || m.move), App.madeByTag(m))));
    list.scrollTop = list.scrollHeight;
  }

  function takeMatch(detail) {
    // Pushes and POST answers can cross: keep the newest version of the newest match.
    if (match && detail.id === match.id && detail.version < match.version) return;
    if (match && detail.id < match.id) return;
    const changed = !match || detail.id !== match.id || detail.version !== match.version;
    match = detail;
    renderMatch();
    if (changed) loadMoves().catch(() => {});
  }

  async function loadMatch(id) {
    takeMatch(await App.api("GET", `/api/matches/${id}/`));
  }

  let actionErrorCode = null;
  function showActionError(error) {
    actionErrorCode = error ? error.code : null;
    App.showError($("action-error"), error);
  }

  function play(move) {
    if (!match) return Promise.resolve();
    return send(`/api/matches/${match.id}/moves/`, { move, version: match.version });
  }

  // A move made through another endpoint that answers with the match (Sokoban's
  // solver steps: the server picks the move and plays it on the player's behalf).
  function post(url, body) {
    return send(url, body);
  }

  async function send(url, body) {
    if (!match || sending) return;
    sending = true;
    root.classList.add("busy");
    showActionError(null);
    try {
      takeMatch(await App.api("POST", url, body));
    } catch (error) {
      showActionError(error);
      // Someone else's move (or a rematch) got in first: show the board as it is now.
      if (error.status === 409) await loadMatch(match.id).catch(() => {});
    } finally {
      sending = false;
      root.classList.remove("busy");
    }
  }

  async function roomAction(path, after) {
    showActionError(null);
    try {
      const answer = await App.api("POST", `/api/rooms/${roomId}/${path}/`);
      if (after) after(answer);
    } catch (error) {
      showActionError(error);
    }
  }

  $("join").addEventListener("click", () => roomAction("join", (r) => { room = r; renderRoom(); }));
  $("leave").addEventListener("click", () => roomAction("leave", (r) => { room = r; renderRoom(); }));
  $("start").addEventListener("click", () => roomAction("start", (m) => takeMatch(m)));
  // The answer is the new match once everyone accepted, else the room with the offer.
  $("rematch").addEventListener("click", () => roomAction("rematch", (answer) => {
    if ("version" in answer) takeMatch(answer);
    else { room = answer; renderRoom(); }
  }));
  $("decline").addEventListener("click", () => roomAction("rematch/decline", (r) => { room = r; renderRoom(); }));
  $("resign").addEventListener("click", async () => {
    const leaving = solo();
    if (!match || !confirm(leaving ? gettext("Leave this level? It stays unsolved.") : gettext("Resign this game?"))) return;
    showActionError(null);
    try {
      takeMatch(await App.api("POST", `/api/matches/${match.id}/resign/`));
      if (leaving) location.href = root.dataset.leaveTo || "/";
    } catch (error) {
      showActionError(error);
    }
  });
  $("claim").addEventListener("click", async () => {
    if (!match) return;
    showActionError(null);
    try {
      takeMatch(await App.api("POST", `/api/matches/${match.id}/claim/`));
    } catch (error) {
      showActionError(error);
      // They came back (or someone else claimed first): show the match as it is.
      await loadMatch(match.id).catch(() => {});
    }
  });

  function addChat(message) {
    const log = $("chat-log");
    if (log.querySelector(`[data-id="${message.id}"]`)) return;
    // textContent only: a chat line is shown as text, never as HTML.
    const line = App.el("li", { dataset: { id: message.id }, class: message.username === me ? "mine" : null },
      App.el("b", {}, message.username), ": ", App.el("span", { class: "text" }, message.text));
    // Lines fetched after a reconnect may be older than pushes already shown.
    const later = [...log.children].find((li) => Number(li.dataset.id) > message.id);
    log.insertBefore(line, later || null);
    log.scrollTop = log.scrollHeight;
  }

  $("chat-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = $("chat-input");
    const button = event.target.querySelector("button");
    App.showError($("chat-error"), null);
    button.disabled = true;
    try {
      addChat(await App.api("POST", `/api/rooms/${roomId}/chat/`, { text: input.value }));
      input.value = "";
    } catch (error) {
      App.showError($("chat-error"), error);
    } finally {
      button.disabled = false;
      input.focus();
    }
  });

  function loadChat() {
    return App.api("GET", `/api/rooms/${roomId}/chat/`).then((lines) => lines.forEach(addChat));
  }

  // The socket gave up: logged out (4401) or the room is gone (4404). Say so,
  // and where to go; a reload cannot help.
  function showClosed(code) {
    const problem = $("connection-problem");
    problem.hidden = false;
    problem.dataset.code = code;
    if (code === 4401) {
      const next = encodeURIComponent(location.pathname);
      problem.replaceChildren(...App.sentence(
        gettext("You are not logged in any more, so this room cannot be followed. %(link)s to come back to it."),
        { link: App.el("a", { href: `/login/?next=${next}` }, gettext("Log in again")) }));
    } else {
      problem.replaceChildren(...App.sentence(gettext("This room is gone: there is nothing to follow here. %(link)s."),
        { link: App.el("a", { href: "/" }, gettext("Back to the lobby")) }));
    }
  }

  let connectedBefore = false;
  App.socket(roomId, {
    status(state, code) {
      const node = $("connection");
      node.dataset.state = state;
      const closed = code === 4401 ? gettext("logged out") : code === 4404 ? gettext("room gone") : gettext("disconnected");
      node.textContent = { live: gettext("live"), offline: gettext("reconnecting…"), closed }[state] || state;
      node.title = state === "live" ? gettext("Moves and chat arrive as they happen")
        : state === "offline" ? gettext("Lost the connection to the server; trying again") : gettext("The page stopped following this room");
      if (state === "closed") showClosed(code);
      if (state === "live") {
        // Chat lines posted while we were away came as pushes nobody heard: fetch them.
        if (connectedBefore) loadChat().catch(() => {});
        connectedBefore = true;
        // "Cannot reach the server" is no longer true; the snapshot shows where things stand.
        if (actionErrorCode === "network") showActionError(null);
      }
    },
    room(message) { room = message.room; renderRoom(); },
    state(message) { takeMatch(message.match); },
    chat(message) { addChat(message.message); },
    // Anything else (e.g. Sokoban's solve progress) is the board's business.
    other(message) { if (board.onMessage) board.onMessage(message); },
  });
  loadChat().catch(() => {});
})();
