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

  const boardModule = App.boards[game];
  const board = boardModule.create($("board"), { play, readonly: false });

  function seatLabel(p) {
    if (p.username) return p.username;
    if (p.bot) return `AI (${p.bot})`;
    return "empty";
  }

  function mySeatInRoom() {
    return room ? room.seats.find((s) => s.username === me) : undefined;
  }

  function renderRoom() {
    $("room-title").textContent = `${boardModule.title || game} — room ${room.id}`;
    $("room-status").textContent = room.status;
    $("room-code").textContent = room.code;
    const seated = Boolean(mySeatInRoom());
    const free = room.seats.some((s) => !s.username && !s.bot);
    $("join").hidden = seated || room.status !== "open" || !free;
    $("leave").hidden = !seated || room.status !== "open";
    renderSeats();
    if (room.match && (!match || match.id !== room.match)) loadMatch(room.match);
  }

  function renderSeats() {
    const list = $("seats");
    list.replaceChildren();
    // During a match the seats are the match's players (seat 1 moves first);
    // before it, the room's chairs.
    const rows = match ? match.players : room.seats;
    for (const p of rows) {
      const toMove = match && match.status === "active" && match.to_move.includes(p.seat);
      list.append(App.el("li", {
        class: `seat seat-${p.seat}${toMove ? " to-move" : ""}${p.username === me ? " mine" : ""}`,
        dataset: { seat: p.seat },
      }, App.el("span", { class: `swatch swatch-${p.seat}` }), seatLabel(p), toMove ? " — to move" : ""));
    }
  }

  function renderMatch() {
    if (!match) return;
    const active = match.status === "active";
    const myTurn = active && match.seat !== null && match.to_move.includes(match.seat);
    board.render(match.state, {
      mySeat: match.seat,
      myTurn,
      legalMoves: myTurn ? match.legal_moves : [],
      players: match.players,
    });
    const turn = $("turn");
    if (active) {
      const names = match.players.filter((p) => match.to_move.includes(p.seat)).map(seatLabel);
      turn.textContent = myTurn ? "Your turn" : `Waiting for ${names.join(", ")}`;
      turn.dataset.myTurn = myTurn ? "yes" : "no";
    } else {
      turn.textContent = "";
      turn.dataset.myTurn = "no";
    }
    const banner = $("banner");
    banner.hidden = active;
    banner.textContent = active ? "" : App.resultText(match, me);
    const seated = match.seat !== null;
    $("resign").hidden = !active || !seated;
    $("rematch").hidden = active || !mySeatInRoom();
    const replay = $("replay-link");
    replay.hidden = active;
    replay.href = `/matches/${match.id}/replay/`;
    renderSeats();
  }

  async function loadMoves() {
    if (!match) return;
    const moves = await App.api("GET", `/api/matches/${match.id}/moves/`);
    const list = $("moves");
    list.replaceChildren(...moves.map((m) => App.el("li", { dataset: { ply: m.ply } },
      App.el("span", { class: `swatch swatch-${m.seat}` }), `${m.move}`)));
    list.scrollTop = list.scrollHeight;
  }

  function takeMatch(detail) {
    // Pushes and POST answers can cross: keep the newest version of the newest match.
    if (match && detail.id === match.id && detail.version < match.version) return;
    if (match && detail.id < match.id) return;
    const gap = !match || detail.id !== match.id || detail.version !== match.version + 1;
    const changed = !match || detail.id !== match.id || detail.version !== match.version;
    match = detail;
    renderMatch();
    if (changed || gap) loadMoves().catch(() => {});
  }

  async function loadMatch(id) {
    takeMatch(await App.api("GET", `/api/matches/${id}/`));
  }

  async function play(move) {
    if (!match || sending) return;
    sending = true;
    App.showError($("action-error"), null);
    try {
      takeMatch(await App.api("POST", `/api/matches/${match.id}/moves/`, { move, version: match.version }));
    } catch (error) {
      App.showError($("action-error"), error);
      if (error.status === 409) await loadMatch(match.id);
    } finally {
      sending = false;
    }
  }

  async function roomAction(path, after) {
    App.showError($("action-error"), null);
    try {
      const answer = await App.api("POST", `/api/rooms/${roomId}/${path}/`);
      if (after) after(answer);
    } catch (error) {
      App.showError($("action-error"), error);
    }
  }

  $("join").addEventListener("click", () => roomAction("join", (r) => { room = r; renderRoom(); }));
  $("leave").addEventListener("click", () => roomAction("leave", (r) => { room = r; renderRoom(); }));
  $("rematch").addEventListener("click", () => roomAction("rematch", (m) => takeMatch(m)));
  $("resign").addEventListener("click", async () => {
    if (!match || !confirm("Resign this game?")) return;
    try {
      takeMatch(await App.api("POST", `/api/matches/${match.id}/resign/`));
    } catch (error) {
      App.showError($("action-error"), error);
    }
  });

  function addChat(message) {
    const log = $("chat-log");
    if (log.querySelector(`[data-id="${message.id}"]`)) return;
    // textContent only: a chat line is shown as text, never as HTML.
    log.append(App.el("li", { dataset: { id: message.id } },
      App.el("b", {}, message.username), ": ", App.el("span", { class: "text" }, message.text)));
    log.scrollTop = log.scrollHeight;
  }

  $("chat-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = $("chat-input");
    App.showError($("chat-error"), null);
    try {
      addChat(await App.api("POST", `/api/rooms/${roomId}/chat/`, { text: input.value }));
      input.value = "";
    } catch (error) {
      App.showError($("chat-error"), error);
    }
  });

  App.api("GET", `/api/rooms/${roomId}/chat/`).then((lines) => lines.forEach(addChat)).catch(() => {});

  App.socket(roomId, {
    status(state) {
      const node = $("connection");
      node.dataset.state = state;
      node.textContent = state === "live" ? "live" : "reconnecting…";
    },
    room(message) { room = message.room; renderRoom(); },
    state(message) { takeMatch(message.match); },
    chat(message) { addChat(message.message); },
  });
})();
