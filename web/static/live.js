// The live page polls its panel (204 while nothing changed) and counts the answer clock down locally:
// the box publishes the time left when the board changes, not every second.
(function () {
  "use strict";
  var root = document.getElementById("live");
  if (!root) { return; }
  var url = root.getAttribute("data-panel");
  var shownAt = Date.now();
  function version() {
    var panel = root.querySelector(".live-panel");
    return panel ? panel.getAttribute("data-version") : "";
  }
  function colour() {
    root.querySelectorAll(".dot[data-colour]").forEach(function (dot) {
      dot.style.backgroundColor = dot.getAttribute("data-colour");
    });
  }
  function countdown() {
    var clock = root.querySelector(".clock[data-remaining]");
    if (!clock || clock.getAttribute("data-paused") === "yes") { return; }
    var left = parseFloat(clock.getAttribute("data-remaining")) - (Date.now() - shownAt) / 1000;
    var seconds = clock.querySelector(".seconds");
    if (seconds && !isNaN(left)) { seconds.textContent = String(Math.max(0, Math.ceil(left))); }
  }
  function poll() {
    fetch(url + "?v=" + encodeURIComponent(version()), {credentials: "same-origin"})
      .then(function (response) {
        // logged out meanwhile: the panel's URL was redirected to the login page; show that page whole
        if (response.status === 401 || response.redirected) { window.location.reload(); return null; }
        return response.status === 200 ? response.text() : null;
      })
      .then(function (html) { if (html) { root.innerHTML = html; shownAt = Date.now(); colour(); countdown(); } })
      .catch(function () { /* the box or the Wi-Fi is away: try again at the next tick */ })
      .finally(function () { window.setTimeout(poll, 1000); });
  }
  // the buzzer round's shortcuts: A arm, R right, W wrong, N next question, C close (buttons with data-key)
  document.addEventListener("keydown", function (event) {
    if (event.target && /^(INPUT|SELECT|TEXTAREA)$/.test(event.target.tagName)) { return; }
    if (event.altKey || event.ctrlKey || event.metaKey || !event.key) { return; }
    var button = root.querySelector('button[data-key="' + event.key.toLowerCase() + '"]');
    if (button && !button.disabled) { event.preventDefault(); button.click(); }
  });
  colour();
  window.setInterval(countdown, 250);
  window.setTimeout(poll, 1000);
})();
