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
  }
  document.querySelectorAll("input[name=game]").forEach(function (radio) {
    radio.addEventListener("change", showOptions);
  });
  showOptions();
})();
