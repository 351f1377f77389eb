// The phone handset page: poll the screen (204 while nothing changed), send answers with fetch and show
// the new screen at once. What the player is typing survives a refresh of the same prompt.
(function () {
  "use strict";
  var root = document.getElementById("phone");
  if (!root) { return; }
  var panelUrl = root.getAttribute("data-panel");
  var every = parseInt(root.getAttribute("data-poll"), 10) || 1000;
  var battery = "";
  var busy = false;

  function panel() { return root.querySelector(".phone-panel"); }
  function attr(name) { var p = panel(); return p ? p.getAttribute(name) : ""; }

  function typed() {
    var values = {};
    root.querySelectorAll("form.answer input, form.answer select").forEach(function (field) {
      if (field.type === "hidden") { return; }
      if (field.type === "radio" || field.type === "checkbox") {
        if (field.checked) { values[field.name + "=" + field.value] = true; }
      } else if (field.value !== "") { values[field.name] = field.value; }
    });
    return values;
  }
  function restore(values) {
    root.querySelectorAll("form.answer input, form.answer select").forEach(function (field) {
      if (field.type === "hidden") { return; }
      if (field.type === "radio" || field.type === "checkbox") {
        if (values[field.name + "=" + field.value]) { field.checked = true; }
      } else if (values[field.name] !== undefined) { field.value = values[field.name]; }
    });
  }
  function show(html) {
    var before = attr("data-prompt"), values = typed(), focused = document.activeElement;
    var focusName = focused && focused.name;
    root.innerHTML = html;
    if (attr("data-prompt") === before) {
      restore(values);
      if (focusName) { var again = root.querySelector("[name='" + focusName + "']"); if (again) { again.focus(); } }
    }
  }
  function poll() {
    if (busy) { window.setTimeout(poll, every); return; }
    var url = panelUrl + "?v=" + encodeURIComponent(attr("data-version")) + (battery ? "&battery=" + battery : "");
    fetch(url, {credentials: "same-origin"})
      .then(function (response) {
        if (response.status === 410) { window.location.href = "/join"; return null; }
        return response.status === 200 ? response.text() : null;
      })
      .then(function (html) { if (html) { show(html); } })
      .catch(function () { /* Wi-Fi gone for a moment: the next poll tries again */ })
      .finally(function () { window.setTimeout(poll, every); });
  }
  root.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.classList.contains("answer")) { return; }
    event.preventDefault();
    var data = new FormData(form);
    if (event.submitter && event.submitter.name) { data.append(event.submitter.name, event.submitter.value); }
    busy = true;
    fetch(form.action, {method: "POST", body: data, credentials: "same-origin",
                        headers: {"X-Requested-With": "fetch"}})
      .then(function (response) { return response.text(); })
      .then(function (html) { show(html); })
      .catch(function () { form.submit(); })
      .finally(function () { busy = false; });
  });
  if (navigator.getBattery) {
    navigator.getBattery().then(function (b) {
      function update() { battery = String(Math.round(b.level * 100)); }
      update();
      b.addEventListener("levelchange", update);
    }).catch(function () {});
  }
  window.setTimeout(poll, every);
})();
