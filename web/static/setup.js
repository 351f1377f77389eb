// Game set-up: move seat rows up and down (clockwise order) and show only the chosen game's options.
(function () {
  "use strict";
  var seats = document.getElementById("seats");
  if (!seats) { return; }
  function swap(a, b) {
    ["input", "select"].forEach(function (tag) {
      var x = a.querySelector(tag), y = b.querySelector(tag), v = x.value;
      x.value = y.value; y.value = v;
    });
  }
  seats.addEventListener("click", function (event) {
    var button = event.target.closest("button");
    if (!button) { return; }
    var row = button.closest("li");
    var other = button.classList.contains("up") ? row.previousElementSibling : row.nextElementSibling;
    if (other) { swap(row, other); }
  });
  function showOptions() {
    var chosen = document.querySelector("input[name=game]:checked");
    document.querySelectorAll("fieldset.options").forEach(function (set) {
      set.hidden = !chosen || set.getAttribute("data-game") !== chosen.value;
    });
    // only the decks the chosen game plays (an estimation deck for Confident?, an All In deck for All In)
    var kind = chosen ? chosen.getAttribute("data-deck") : null;
    var deck = document.querySelector("select[name=deck]");
    if (!deck || !kind) { return; }
    deck.querySelectorAll("option[data-type]").forEach(function (option) {
      var other = option.getAttribute("data-type") !== kind;
      option.hidden = other;
      option.disabled = other;
      if (other && option.selected) { deck.value = ""; }
    });
  }
  // the chosen game's seat limit beside the seat list, with how many rows are filled in (rules.md The room 1)
  var limit = document.getElementById("seat-limit");
  function seated() {
    var n = 0;
    seats.querySelectorAll("li").forEach(function (row) {
      if (row.querySelector("input").value.trim() && row.querySelector("select").value) { n += 1; }
    });
    return n;
  }
  function showLimit() {
    var chosen = document.querySelector("input[name=game]:checked");
    if (!limit || !chosen) { return; }
    var low = Number(chosen.getAttribute("data-min")), high = Number(chosen.getAttribute("data-max"));
    var n = seated();
    var text = chosen.getAttribute("data-name") + " seats " + low + " to " + high + " players or teams; " +
      n + (n === 1 ? " seat is" : " seats are") + " filled in.";
    if (n > high) { text += " Take " + (n - high) + " out before you start."; }
    if (n < low) { text += " Fill in " + (low - n) + " more."; }
    limit.textContent = text;
    limit.classList.toggle("error", n > high || n < low);
  }
  document.querySelectorAll("input[name=game]").forEach(function (radio) {
    radio.addEventListener("change", showOptions);
    radio.addEventListener("change", showLimit);
  });
  seats.addEventListener("input", showLimit);
  seats.addEventListener("change", showLimit);
  showOptions();
  showLimit();
})();
