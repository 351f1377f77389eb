// The phone handset page: poll the screen (204 while nothing changed), send answers with fetch and show
// the new screen at once. What the player is typing survives a refresh of the same prompt, the same
// question coming back under a new prompt (after a pause, say) and a reload of the page, until it is sent.
// Small helps while typing (the handset core still checks everything when the answer is sent):
// Enter moves from "From" to "To" and sends a bet with its own button; a chosen copy greys out the
// range; a split over two sides puts the rest of the chips on the other side.
(function () {
  "use strict";
  var root = document.getElementById("phone");
  if (!root) { return; }
  var panelUrl = root.getAttribute("data-panel");
  var every = parseInt(root.getAttribute("data-poll"), 10) || 1000;
  var battery = "";
  var busy = false;
  // what was typed, by question (kind, title, text), until it is sent; kept in the tab's sessionStorage
  // (under the phone's name) so that a reload of the page loses nothing
  var storeKey = "quizbox-drafts:" + (root.getAttribute("data-phone") || "");
  var drafts = loadDrafts();

  function loadDrafts() {
    try { return JSON.parse(window.sessionStorage.getItem(storeKey) || "{}") || {}; } catch (e) { return {}; }
  }
  function saveDrafts() {
    try { window.sessionStorage.setItem(storeKey, JSON.stringify(drafts)); } catch (e) { /* private mode: memory only */ }
  }
  // the answer form's draft as typed now (or ``values``, read a moment ago), saved
  function keep(values) { if (answers().length) { drafts[attr("data-draft")] = values || typed(); saveDrafts(); } }

  function panel() { return root.querySelector(".phone-panel"); }
  function attr(name) { var p = panel(); return p ? p.getAttribute(name) : ""; }
  function answers() { return root.querySelectorAll("form.answer input, form.answer select"); }
  // what survives a refresh of the same screen: the answer and a seat code being typed
  function fields() { return root.querySelectorAll("form.answer input, form.answer select, form.retake input"); }

  function typed() {
    var values = {};
    fields().forEach(function (field) {
      if (field.type === "hidden") { return; }
      if (field.type === "radio" || field.type === "checkbox") {
        values[field.name + "=" + field.value] = field.checked;
      } else { values[field.name] = field.value; }
    });
    return values;
  }
  function restore(values) {
    fields().forEach(function (field) {
      if (field.type === "hidden") { return; }
      if (field.type === "radio" || field.type === "checkbox") {
        var key = field.name + "=" + field.value;
        if (values[key] !== undefined) { field.checked = values[key]; }
      } else if (values[field.name] !== undefined) { field.value = values[field.name]; }
    });
  }

  // -- helps while typing ----------------------------------------------------------------------------
  function copyChosen() {
    var copy = root.querySelector("form.answer select[name=copy]");
    var chosen = Boolean(copy && copy.value);
    root.querySelectorAll("form.answer .range input").forEach(function (input) {
      input.disabled = chosen;
      if (chosen) { input.value = ""; }
    });
  }
  function splitLeft(changed) {
    var box = root.querySelector("form.answer .split");
    if (!box) { return; }
    var total = parseInt(box.getAttribute("data-total"), 10);
    var inputs = Array.prototype.slice.call(box.querySelectorAll("input"));
    // whole chips from 0 (empty: 0); anything else is NaN, so the count below says so
    function value(input) { var t = input.value.trim(); return t === "" ? 0 : (/^\d+$/.test(t) ? parseInt(t, 10) : NaN); }
    if (changed && inputs.length === 2) {
      var mine = value(changed);
      var other = inputs[0] === changed ? inputs[1] : inputs[0];
      if (mine >= 0 && mine <= total) { other.value = String(total - mine); }
    }
    var used = inputs.reduce(function (sum, input) { return sum + value(input); }, 0);
    var left = root.querySelector("form.answer .split-left");
    function chips(n) { return n + (n === 1 ? " chip" : " chips"); }
    if (left && !isNaN(total)) {
      left.textContent = isNaN(used) ? "Whole chips only, from 0." : used === total ? "All " + chips(total) + " placed." :
        (used < total ? chips(total - used) + " still to place." : chips(used - total) + " too many.");
    }
  }
  function helps() { copyChosen(); splitLeft(null); }

  root.addEventListener("change", function (event) {
    if (event.target.name === "copy") { copyChosen(); }
    keep();
  });
  root.addEventListener("input", function (event) {
    if (event.target.closest && event.target.closest(".split")) { splitLeft(event.target); }
    keep();
  });
  root.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || !event.target.form || event.target.tagName !== "INPUT") { return; }
    var target = event.target;
    if (target.name === "bottom") {  // From: go on to To rather than send half a range
      event.preventDefault();
      target.form.querySelector("input[name=top]").focus();
    } else if (target.closest(".amount")) {  // a bet amount: send with its own button, never Fold
      event.preventDefault();
      target.closest(".amount").querySelector("button").click();
    } else if (target.form.classList.contains("kind-bet")) {
      event.preventDefault();
    }
  });

  // -- the screen ----------------------------------------------------------------------------------------
  function show(html) {
    var before = attr("data-prompt"), values = typed(), focused = document.activeElement;
    var focusName = focused && focused.name;
    keep(values);
    root.innerHTML = html;
    if (attr("data-prompt") === before) {
      restore(values);
      if (focusName) { var again = root.querySelector("[name='" + focusName + "']"); if (again) { again.focus(); } }
    } else if (drafts[attr("data-draft")]) {
      restore(drafts[attr("data-draft")]);  // the same question again, under a new prompt
    }
    helps();
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
    if (busy) { return; }  // one answer at a time: a double tap sends once
    var data = new FormData(form);
    if (event.submitter && event.submitter.name) { data.append(event.submitter.name, event.submitter.value); }
    busy = true;
    var draft = attr("data-draft");
    // getAttribute: a bet form has buttons named "action", which form.action would return instead
    fetch(form.getAttribute("action"), {method: "POST", body: data, credentials: "same-origin",
                        headers: {"X-Requested-With": "fetch"}})
      .then(function (response) { return response.text(); })
      .then(function (html) {
        show(html);
        if (!answers().length) { delete drafts[draft]; saveDrafts(); }  // sent and taken: nothing left to keep
      })
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
  if (answers().length && drafts[attr("data-draft")]) { restore(drafts[attr("data-draft")]); }  // a reload
  helps();
  window.setTimeout(poll, every);
})();
