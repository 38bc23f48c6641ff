// The settings page: display name, sound volume (with a test sound) and the
// default turn time, read from and saved to /api/auth/me/. The server checks
// every value; its error is shown as it gave it.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const form = $("settings-form");
  const volume = $("volume");
  const turn = $("default-turn-seconds");
  let loaded = false;

  function showVolume() {
    $("volume-value").textContent = `${volume.value}%`;
  }
  volume.addEventListener("input", () => { showVolume(); $("settings-saved").hidden = true; });

  // A saved time the list does not offer still shows, as itself.
  function chooseTurn(seconds) {
    if (seconds === undefined || seconds === null) { turn.value = ""; return; }
    const value = String(seconds);
    if (![...turn.options].some((o) => o.value === value)) {
      turn.append(App.el("option", { value }, `${seconds} seconds`));
    }
    turn.value = value;
  }

  function fill(me) {
    $("display-name").value = me.display_name || "";
    const preferences = me.preferences || {};
    volume.value = typeof preferences.volume === "number" ? preferences.volume : App.sound.DEFAULT_VOLUME;
    showVolume();
    chooseTurn(preferences.default_turn_seconds);
    // Once a default is saved the API keeps one: "the game's own default" is for new accounts only.
    turn.querySelector('option[value=""]').hidden = preferences.default_turn_seconds !== undefined;
    loaded = true;
    $("settings-fields").disabled = false;
  }

  $("test-sound").addEventListener("click", () => App.sound.test(Number(volume.value)));

  form.addEventListener("input", () => { $("settings-saved").hidden = true; });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!loaded) return;
    App.showError($("settings-error"), null);
    $("settings-saved").hidden = true;
    const preferences = { volume: Number(volume.value) };
    if (turn.value !== "") preferences.default_turn_seconds = Number(turn.value);
    const button = $("save-settings");
    button.disabled = true;
    try {
      const me = await App.api("PATCH", "/api/auth/me/", { display_name: $("display-name").value, preferences });
      fill(me);
      App.sound.setVolume(me.preferences.volume);
      $("settings-saved").textContent = "Saved.";
      $("settings-saved").hidden = false;
    } catch (error) {
      App.showError($("settings-error"), error);
    } finally {
      button.disabled = false;
    }
  });

  App.api("GET", "/api/auth/me/").then(fill).catch((error) => App.showError($("settings-error"), error));
})();
