// The live page polls its panel (204 while nothing changed) and counts the answer clock down locally.
(function () {
  "use strict";
  var root = document.getElementById("live");
  if (!root) { return; }
  var url = root.getAttribute("data-panel");
  function version() {
    var panel = root.querySelector(".live-panel");
    return panel ? panel.getAttribute("data-version") : "";
  }
  function colour() {
    root.querySelectorAll(".dot[data-colour]").forEach(function (dot) {
      dot.style.backgroundColor = dot.getAttribute("data-colour");
    });
  }
  function poll() {
    fetch(url + "?v=" + encodeURIComponent(version()), {credentials: "same-origin"})
      .then(function (response) {
        if (response.status === 200) { return response.text(); }
        if (response.status === 401 || response.redirected) { window.location.reload(); }
        return null;
      })
      .then(function (html) { if (html) { root.innerHTML = html; colour(); } })
      .catch(function () { /* the box or the Wi-Fi is away: try again at the next tick */ })
      .finally(function () { window.setTimeout(poll, 1000); });
  }
  colour();
  window.setTimeout(poll, 1000);
})();
