// The settings page: display name, language, sound volume (with a test sound)
// and the default turn time, read from and saved to /api/auth/me/. The server
// checks every value; its error is shown as it gave it. A new language is
// then switched to as the top bar's switch does it (the page comes again in it).
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const form = $("settings-form");
  const volume = $("volume");
  const turn = $("default-turn-seconds");
  const language = $("language");
  const SAVED = "boardgames.settings-saved"; // "Saved." outlives the reload into a new language
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
      turn.append(App.el("option", { value }, interpolate(ngettext("%(count)s second", "%(count)s seconds", seconds), { count: seconds }, true)));
    }
    turn.value = value;
  }

  function fill(me) {
    $("display-name").value = me.display_name || "";
    const preferences = me.preferences || {};
    volume.value = typeof preferences.volume === "number" ? preferences.volume : App.sound.DEFAULT_VOLUME;
    showVolume();
    chooseTurn(preferences.default_turn_seconds);
    // No choice saved yet: the page's language, which is the browser's.
    language.value = preferences.language || App.language;
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
    const preferences = { volume: Number(volume.value), language: language.value };
    if (turn.value !== "") preferences.default_turn_seconds = Number(turn.value);
    const button = $("save-settings");
    button.disabled = true;
    try {
      const me = await App.api("PATCH", "/api/auth/me/", { display_name: $("display-name").value, preferences });
      fill(me);
      App.sound.setVolume(me.preferences.volume);
      if (language.value !== App.language) {
        try { sessionStorage.setItem(SAVED, "yes"); } catch (e) { /* private mode */ }
        await App.setLanguage(language.value);
        return;
      }
      showSaved();
    } catch (error) {
      App.showError($("settings-error"), error);
    } finally {
      button.disabled = false;
    }
  });

  function showSaved() {
    $("settings-saved").textContent = gettext("Saved.");
    $("settings-saved").hidden = false;
  }

  App.api("GET", "/api/auth/me/").then((me) => {
    fill(me);
    let saved = null;
    try { saved = sessionStorage.getItem(SAVED); sessionStorage.removeItem(SAVED); } catch (e) { /* private mode */ }
    if (saved) showSaved();
  }).catch((error) => App.showError($("settings-error"), error));
})();
