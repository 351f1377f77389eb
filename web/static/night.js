// Quiz night pages: each round's deck list shows only decks of that round's game's kind (a buzzer round
// needs none), and N starts the next round. The night page follows the night by itself: it polls
// /night/version every two seconds and reloads when the night moved on (a round ended, a tie-break number
// came from a handset), unless the quizmaster is typing in one of its forms: then it says so and waits.
(function () {
  "use strict";
  function filter(row) {
    var game = row.querySelector(".round-game");
    var deck = row.querySelector(".round-deck");
    if (!game || !deck) { return; }
    var chosen = game.options[game.selectedIndex];
    var kind = chosen ? chosen.getAttribute("data-deck") : null;
    Array.prototype.forEach.call(deck.options, function (option) {
      var type = option.getAttribute("data-type");
      var fits = !type || !kind || type === kind;
      option.hidden = !fits;
      option.disabled = !fits;
      if (!fits && option.selected) { deck.value = ""; }
    });
  }
  document.querySelectorAll(".round-row, form.setup").forEach(function (row) {
    var game = row.querySelector(".round-game");
    if (game) { game.addEventListener("change", function () { filter(row); }); filter(row); }
  });
  // how many night players are filled in, beside the limits (rules.md The room 1)
  var count = document.getElementById("seat-count");
  var list = document.getElementById("seats");
  function countSeats() {
    var n = 0;
    list.querySelectorAll("li").forEach(function (row) {
      if (row.querySelector("input").value.trim() && row.querySelector("select").value) { n += 1; }
    });
    count.textContent = n + (n === 1 ? " player is" : " players are") + " filled in.";
  }
  if (count && list) {
    list.addEventListener("input", countSeats);
    list.addEventListener("change", countSeats);
    countSeats();
  }
  var live = document.getElementById("night-live");
  if (live) {
    var typing = false;
    document.addEventListener("input", function () { typing = true; });
    document.addEventListener("change", function () { typing = true; });
    var reload = document.getElementById("night-reload");
    if (reload) { reload.addEventListener("click", function () { window.location.reload(); }); }
    var poll = function () {
      fetch(live.getAttribute("data-poll"), {credentials: "same-origin", cache: "no-store"})
        .then(function (response) {
          if (response.status === 401 || response.redirected) { window.location.reload(); return null; }
          return response.ok ? response.json() : null;
        })
        .then(function (data) {
          if (!data || data.version === live.getAttribute("data-version")) { return; }
          var busy = document.activeElement && /^(INPUT|SELECT|TEXTAREA)$/.test(document.activeElement.tagName);
          if (typing || busy) { live.hidden = false; } else { window.location.reload(); }
        })
        .catch(function () { /* the box or the Wi-Fi is away: try again at the next tick */ })
        .finally(function () { window.setTimeout(poll, 2000); });
    };
    window.setTimeout(poll, 2000);
  }
  document.addEventListener("keydown", function (event) {
    if (event.target && /^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName)) { return; }
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var button = document.querySelector('button[data-key="' + event.key.toLowerCase() + '"]');
    if (button && !button.disabled) { event.preventDefault(); button.click(); }
  });
})();
