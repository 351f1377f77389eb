// The TV in a browser: ask for the board's version every second; when it changed, load the new picture
// off-screen and swap it in (no flash of an empty image). A click goes full screen.
(function () {
  "use strict";
  var img = document.getElementById("tv");
  if (!img) { return; }
  var shown = img.getAttribute("data-version");
  function poll() {
    fetch(img.getAttribute("data-poll"), {cache: "no-store"})
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (v) {
        if (v === null || v === shown) { return; }
        var next = new Image();
        next.onload = function () { img.src = next.src; img.setAttribute("data-version", v); shown = v; };
        next.src = img.getAttribute("data-board") + "?v=" + encodeURIComponent(v);
      })
      .catch(function () { /* the box is away: try again */ })
      .finally(function () { window.setTimeout(poll, 1000); });
  }
  document.body.addEventListener("click", function () {
    if (document.fullscreenElement || !document.documentElement.requestFullscreen) { return; }
    document.documentElement.requestFullscreen().catch(function () {});
  });
  window.setTimeout(poll, 1000);
})();
