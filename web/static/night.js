// Quiz night pages: each round's deck list shows only decks of that round's game's kind (a buzzer round
// needs none), and N starts the next round.
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
  document.addEventListener("keydown", function (event) {
    if (event.target && /^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName)) { return; }
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var button = document.querySelector('button[data-key="' + event.key.toLowerCase() + '"]');
    if (button && !button.disabled) { event.preventDefault(); button.click(); }
  });
})();
